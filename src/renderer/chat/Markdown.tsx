import { memo, useMemo } from 'react';
import { renderMarkdown } from './markdown.ts';

export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // The HTML comes from renderMarkdown: model HTML escaped, the result sanitized by DOMPurify.
  return <div className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
});
