import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CopyButton } from '../ui/index.ts';
import { renderMarkdown } from './markdown.ts';

/** The code of a rendered block as the model wrote it (the highlighter's spans hold the same text). */
const codeOf = (block: Element) => () => block.querySelector('pre code')?.textContent ?? '';

export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  const ref = useRef<HTMLDivElement>(null);
  // Each code block gets a copy button, drawn by React into a slot added after the sanitized HTML is in
  // place: the sanitizer never has to let a button through.
  const [slots, setSlots] = useState<{ slot: HTMLElement; block: Element }[]>([]);
  useLayoutEffect(() => {
    const blocks = ref.current ? [...ref.current.querySelectorAll('.code-block')] : [];
    // Most text has no code: no second render for it (a streaming reply renders on every delta).
    if (blocks.length === 0) {
      setSlots((prev) => (prev.length === 0 ? prev : []));
      return;
    }
    setSlots(
      blocks.map((block) => {
        const slot = document.createElement('span');
        slot.className = 'code-copy';
        block.append(slot);
        return { slot, block };
      }),
    );
  }, [html]);
  return (
    <>
      {/* The HTML comes from renderMarkdown: model HTML escaped, the result sanitized by DOMPurify. */}
      <div ref={ref} className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />
      {slots.map(({ slot, block }, i) => createPortal(<CopyButton text={codeOf(block)} label="Copy code" testId="copy-code" />, slot, String(i)))}
    </>
  );
});
