import { useEffect, useId, useState } from 'react';
import type { ApiOutput } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { Icon } from '../ui/index.ts';

type Sent = ApiOutput<'chat.lastPrompt'>;

/** "View prompt": the exact system message and tool list of the conversation's last model request. */
export function PromptViewer({ sessionId, onClose }: { sessionId: string; onClose(): void }) {
  const api = useApi();
  const [sent, setSent] = useState<Sent | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  useEffect(() => {
    let live = true;
    api.call('chat.lastPrompt', { sessionId }).then(
      (v) => live && setSent(v),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId]);

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal prompt-viewer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="prompt-viewer"
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
      >
        <div className="modal-head">
          <span className="modal-icon">
            <Icon name="info" size={18} />
          </span>
          <div>
            <h2 id={titleId}>What the model was told</h2>
            <p className="muted">{sent ? `The system message and tools of the last request, ${new Date(sent.at).toLocaleTimeString()}.` : 'The system message and tools of the last request.'}</p>
          </div>
        </div>
        {error && <p role="alert">{error}</p>}
        {sent === null && <p className="muted">Nothing was sent from this conversation since Amber started. Send a message, then look again.</p>}
        {sent && (
          <>
            <pre className="approval-args prompt-text" tabIndex={0} data-testid="prompt-system">{sent.systemPrompt}</pre>
            <h3 className="small">Tools ({sent.tools.length})</h3>
            <ul className="prompt-tools" data-testid="prompt-tools">
              {sent.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  {t.readOnly ? ' (read-only)' : ''} — {t.description}
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="modal-actions">
          <span className="spacer" />
          <button type="button" className="btn" autoFocus onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
