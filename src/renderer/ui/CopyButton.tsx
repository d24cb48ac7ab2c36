import { useEffect, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';
import './copy-button.css';

const FEEDBACK_MS = 1600;

interface Props {
  /** What is copied; a function is read at the moment of the click (the text may still be streaming). */
  text: string | (() => string);
  /** The button's accessible name, e.g. "Copy code". */
  label: string;
  /** Shows the word beside the icon ("Copy" / "Copied"), not only the icon. */
  showLabel?: boolean;
  className?: string;
  testId?: string;
}

/** Writes the text through the async clipboard API; a window without it falls back to a hidden textarea. */
async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('The clipboard is not available.');
}

/**
 * The one copy button: copies its text, then says "Copied" (or why it could not) for a moment, through a
 * polite live region so a screen reader hears it too.
 */
export function CopyButton({ text, label, showLabel = false, className, testId }: Props) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const copy = async () => {
    let next: 'copied' | 'failed' = 'copied';
    try {
      await writeClipboard(typeof text === 'function' ? text() : text);
    } catch {
      next = 'failed';
    }
    setState(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), FEEDBACK_MS);
  };
  const word = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy';
  return (
    <button
      type="button"
      className={`copy-btn${showLabel ? ' with-label' : ''}${state !== 'idle' ? ` is-${state}` : ''}${className ? ` ${className}` : ''}`}
      aria-label={label}
      title={state === 'idle' ? label : word}
      data-testid={testId ?? 'copy-button'}
      data-state={state}
      onClick={() => void copy()}
    >
      <Icon name={state === 'copied' ? 'check' : state === 'failed' ? 'alert' : 'copy'} size={14} />
      {showLabel && <span aria-hidden="true">{word}</span>}
      <span className="copy-status" aria-live="polite">
        {state === 'idle' ? '' : word}
      </span>
    </button>
  );
}
