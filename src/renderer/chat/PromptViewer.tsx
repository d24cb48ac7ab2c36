import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, Modal } from '../ui/index.ts';

/** "View prompt": the exact system message and tool list of the conversation's last model request. */
export function PromptViewer({ sessionId, onClose }: { sessionId: string; onClose(): void }) {
  const api = useApi();
  const titleId = useId();
  // Read each time the viewer opens: the last request changes with every run.
  const query = useQuery({ queryKey: serverKeys.lastPrompt(sessionId), queryFn: () => api.call('chat.lastPrompt', { sessionId }), staleTime: 0, gcTime: 0 });
  const sent = query.isFetching ? undefined : query.data;
  const error = query.error ? query.error.message : null;

  return (
    <Modal className="modal prompt-viewer" labelledBy={titleId} testId="prompt-viewer" onEscape={onClose} onBackdrop={onClose}>
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="info" size={18} />
        </span>
        <div>
          <h2 id={titleId}>What the model was told</h2>
          <p className="muted">
            {sent
              ? `The system message and tools of the last request, ${new Date(sent.at).toLocaleTimeString()}.`
              : 'The system message and tools of the last request.'}
          </p>
        </div>
      </div>
      {error && <p role="alert">{error}</p>}
      {sent === null && <p className="muted">Nothing was sent from this conversation since Amber started. Send a message, then look again.</p>}
      {sent && (
        <>
          <pre className="approval-args prompt-text" tabIndex={0} data-testid="prompt-system">
            {sent.systemPrompt}
          </pre>
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
    </Modal>
  );
}
