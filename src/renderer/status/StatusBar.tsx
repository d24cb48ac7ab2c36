import { useState } from 'react';
import { useCommands } from '../commands/index.ts';
import { GlyphText, Icon } from '../ui/index.ts';
import { ModelControl } from './ModelControl.tsx';
import { ThinkingControl } from './ThinkingControl.tsx';
import { useStatusBar } from './use-status-bar.ts';
import './status.css';

/**
 * The bar under the chat: the last command's result on the left, then the segments from the core and the
 * plugins in priority order. Plugin code never runs here: segments are data.
 */
export function StatusBar({ sessionId }: { sessionId: string | null }) {
  const all = useStatusBar(sessionId);
  // The model control names the model; its segment would say it twice.
  const [modelShown, setModelShown] = useState(false);
  const segments = modelShown && sessionId ? all.filter((s) => s.id !== 'core.model') : all;
  const commands = useCommands();
  const message = commands?.message ?? null;
  // A man page or a list (/help) does not fit on one line: it opens above the bar, in the page's flow, so
  // the conversation above gives it room and the message box stays visible.
  const multiline = message !== null && message.text.includes('\n');
  return (
    <>
      {message && multiline && (
        <section className={`status-output status-${message.kind}`} aria-label="Command output" data-testid="status-output">
          <pre className="status-popover" data-testid="status-popover" tabIndex={0}>
            {message.text}
          </pre>
          <button type="button" className="icon-btn" aria-label="Close the command output" title="Close" onClick={() => commands?.dismissMessage()}>
            <Icon name="x" size={14} />
          </button>
        </section>
      )}
      <footer className="status-bar" data-testid="status-bar">
        {message && (
          <div className={`status-message status-${message.kind}`} role="status" data-testid="status-message" data-kind={message.kind} title={message.text}>
            <Icon name={message.kind === 'error' ? 'alert' : message.kind === 'help' ? 'info' : 'check'} size={13} />
            <span className="status-message-text">{multiline ? message.text.split('\n')[0] : message.text}</span>
            <button type="button" className="icon-btn status-dismiss" aria-label="Dismiss" onClick={() => commands?.dismissMessage()}>
              <Icon name="x" size={12} />
            </button>
          </div>
        )}
        <span className="spacer" />
        {sessionId && <ModelControl key={`m:${sessionId}`} sessionId={sessionId} onShown={setModelShown} />}
        {sessionId && <ThinkingControl key={sessionId} sessionId={sessionId} />}
        <div className="status-segments">
          {segments.map((s) => (
            <span
              key={`${s.source}:${s.id}`}
              className={`status-seg tone-${s.tone}${s.source === 'core' ? ' is-core' : ''}`}
              title={s.tooltip || s.text}
              data-testid="status-segment"
              data-id={s.id}
              data-source={s.source}
            >
              <GlyphText text={s.text} />
            </span>
          ))}
        </div>
      </footer>
    </>
  );
}
