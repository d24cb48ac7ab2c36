import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { StatusSegmentView } from '../../shared/api/index.ts';
import { useCommands } from '../commands/index.ts';
import { GlyphText, Icon } from '../ui/index.ts';
import { fitSegments } from './segment-fit.ts';
import { useStatusBar } from './use-status-bar.ts';
import './status.css';

/** Width of the "…" button that opens the overflow list, with its gap. */
const OVERFLOW_BUTTON_PX = 34;

const keyOf = (s: StatusSegmentView) => `${s.source}:${s.id}`;
/** The whole of a segment, for its tooltip: its text (which may be cut short on the line) and its own tooltip. */
const fullText = (s: StatusSegmentView) => (s.tooltip && s.tooltip !== s.text ? `${s.text}\n${s.tooltip}` : s.text);

function Segment({ s, width }: { s: StatusSegmentView; width?: number | null }) {
  return (
    <span
      className={`status-seg tone-${s.tone}${s.source === 'core' ? ' is-core' : ''}`}
      title={fullText(s)}
      data-testid="status-segment"
      data-id={s.id}
      data-source={s.source}
      style={width ? { maxWidth: width } : undefined}
    >
      <GlyphText text={s.text} />
    </span>
  );
}

/** Fits the segments on the line by priority: the first `shown` on it (the last maybe cut short), the rest in the overflow. */
function useFit(segments: StatusSegmentView[]) {
  const line = useRef<HTMLDivElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState<{ shown: number; lastWidth: number | null }>({ shown: segments.length, lastWidth: null });
  const signature = segments.map((s) => `${keyOf(s)}=${s.text}`).join('\u0000');
  useLayoutEffect(() => {
    const el = line.current;
    if (!el) return;
    const compute = () => {
      const widths = [...(measure.current?.children ?? [])].map((c) => (c as HTMLElement).getBoundingClientRect().width);
      const next = fitSegments(widths, el.clientWidth, OVERFLOW_BUTTON_PX);
      setFit((f) => (f.shown === next.shown && f.lastWidth === next.lastWidth ? f : next));
    };
    compute();
    const observer = new ResizeObserver(compute);
    observer.observe(el);
    return () => observer.disconnect();
  }, [signature]);
  return { line, measure, fit };
}

/** The "…" button and the list of the segments that did not fit. */
function Overflow({ hidden }: { hidden: StatusSegmentView[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  return (
    <div
      className="status-overflow"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          root.current?.querySelector('button')?.focus();
        }
      }}
    >
      <button
        type="button"
        className="icon-btn status-more"
        aria-label={`${hidden.length} more status ${hidden.length === 1 ? 'item' : 'items'}`}
        aria-expanded={open}
        aria-controls={listId}
        title="More"
        data-testid="status-more"
        onClick={() => setOpen((o) => !o)}
      >
        …
      </button>
      {open && (
        <ul className="status-overflow-list" id={listId} data-testid="status-overflow">
          {hidden.map((s) => (
            <li key={keyOf(s)} className={`tone-${s.tone}`} data-testid="status-overflow-item" data-id={s.id}>
              <GlyphText text={s.text} />
              {s.tooltip && s.tooltip !== s.text && <span className="status-overflow-tip">{s.tooltip}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The bar under the chat, always one line: the model and thinking controls, then the segments from the core
 * and the plugins in priority order — a segment with nothing to say is left out; those that do not fit are
 * cut short (the whole text in their tooltip) or listed behind "…". A command's result shows on a line of
 * its own above the bar and never takes room on it. Plugin code never runs here: segments are data.
 */
export function StatusBar({ sessionId }: { sessionId: string | null }) {
  const all = useStatusBar(sessionId);
  // The model picker beside Send names the model: its segment would say it twice.
  const modelShown = true;
  const segments = all.filter((s) => s.text.trim() !== '' && !(modelShown && sessionId && s.id === 'core.model'));
  const { line, measure, fit } = useFit(segments);
  const commands = useCommands();
  const message = commands?.message ?? null;
  // A man page or a list (/help) does not fit on one line: the commands feature opens it over the conversation,
  // just above the message box, which does not move; only a one-line result takes the note's line.
  const multiline = message !== null && message.text.includes('\n');
  const shown = segments.slice(0, fit.shown);
  const hidden = segments.slice(fit.shown);
  return (
    <>
      {message && !multiline && (
        <div className="status-note">
          <div className={`status-message status-${message.kind}`} role="status" data-testid="status-message" data-kind={message.kind} title={message.text}>
            <Icon name={message.kind === 'error' ? 'alert' : message.kind === 'help' ? 'info' : 'check'} size={13} />
            <span className="status-message-text">{message.text}</span>
            <button type="button" className="icon-btn status-dismiss" aria-label="Dismiss" onClick={() => commands?.dismissMessage()}>
              <Icon name="x" size={12} />
            </button>
          </div>
        </div>
      )}
      <footer className="status-bar" data-testid="status-bar">
        <div className="status-segments" ref={line}>
          {shown.map((s, i) => (
            <Segment key={keyOf(s)} s={s} width={i === shown.length - 1 ? fit.lastWidth : null} />
          ))}
          {hidden.length > 0 && <Overflow hidden={hidden} />}
        </div>
        <div className="status-measure" ref={measure} aria-hidden="true">
          {segments.map((s) => (
            <span key={keyOf(s)} className={`status-seg tone-${s.tone}${s.source === 'core' ? ' is-core' : ''}`}>
              <GlyphText text={s.text} />
            </span>
          ))}
        </div>
      </footer>
    </>
  );
}
