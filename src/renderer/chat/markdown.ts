import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import { Marked, type Tokens } from 'marked';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('css', css);
hljs.registerLanguage('diff', diff);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('rust', rust);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('xml', xml);
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  html: 'xml',
  rs: 'rust',
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const highlighted = new Map<string, string>();

function highlight(code: string, lang: string | undefined): string {
  const name = lang ? (ALIASES[lang.toLowerCase()] ?? lang.toLowerCase()) : '';
  if (!name || !hljs.getLanguage(name) || code.length > 100_000) return escapeHtml(code);
  const key = `${name}\u0000${code}`;
  let html = highlighted.get(key);
  if (html === undefined) {
    html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
    if (highlighted.size > 500) highlighted.clear();
    highlighted.set(key, html);
  }
  return html;
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    // Raw HTML from a model is shown as text, never parsed as markup.
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    code: ({ text, lang }: Tokens.Code) => {
      const language = (lang ?? '').match(/^\S*/)?.[0] ?? '';
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : '';
      return `<div class="code-block">${label}<pre><code class="hljs">${highlight(text, language)}</code></pre></div>`;
    },
  },
});

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const rendered = new Map<string, string>();

/** Markdown to sanitized HTML: raw HTML escaped, then DOMPurify over the result. */
export function renderMarkdown(source: string): string {
  const cached = rendered.get(source);
  if (cached !== undefined) return cached;
  const html = DOMPurify.sanitize(marked.parse(source, { async: false }), {
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
  });
  if (rendered.size > 2000) rendered.clear();
  rendered.set(source, html);
  return html;
}

/** Runs the parser, sanitizer and highlighter once while the window is idle, so the first transcript opens warm. */
export function warmUpMarkdown(): void {
  const sample =
    '## Warm-up\n\n**bold** and `code`, a [link](https://example.com)\n\n- a list\n\n```ts\nconst x: number = 1; // note\n```\n\n```python\ndef f(): return "s"\n```\n';
  renderMarkdown(sample);
  rendered.delete(sample);
}
