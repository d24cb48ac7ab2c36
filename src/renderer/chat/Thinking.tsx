import { useState } from 'react';
import { Icon } from '../ui/index.ts';

/** The model's reasoning: collapsed to one line until opened. */
export function Thinking({ text, live }: { text: string; live?: boolean }) {
  const [open, setOpen] = useState(false);
  if (!text.trim()) return null;
  return (
    <div className="thinking" data-testid="thinking">
      <button type="button" className="thinking-toggle" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
        <Icon name="brain" />
        <span>{live ? 'Thinking…' : 'Thought'}</span>
        {!open && <span className="thinking-peek">{text.replace(/\s+/g, ' ').slice(-120)}</span>}
        <Icon name="chevronDown" className={open ? 'rot-180' : ''} />
      </button>
      {open && <div className="thinking-body">{text}</div>}
    </div>
  );
}
