import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContextItemState, ContextView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { CopyButton, useToasts } from '../ui/index.ts';

const STATE_LABELS: Record<ContextItemState, string> = {
  kept: 'whole',
  masked: 'hidden',
  repeat: 'same as later',
  loop: 'left out (loop)',
  summary: 'summary',
};
const STATE_HELP: Record<ContextItemState, string> = {
  kept: 'Sent as it is.',
  masked: 'Old tool output: a short placeholder is sent instead; the full text stays in the conversation.',
  repeat: 'The same output as a later identical call: a pointer to that one is sent instead.',
  loop: 'One of several identical calls in a row: sent once, with the count.',
  summary: 'What a compaction wrote in place of the messages before it.',
};
const ROLE_LABELS: Record<string, string> = { user: 'You', assistant: 'Model', toolResult: 'Tool result', compaction: 'Summary', custom_message: 'Note' };
const n = (x: number) => x.toLocaleString();

/**
 * "What the model sees now" on the conversation's branch: each message kept whole, hidden, pointed at a later
 * identical one or summarised, with token estimates, the compaction's summary, and a way back to the whole
 * history from before it.
 */
export function ContextTab({ sessionId, onRestored }: { sessionId: string; onRestored(): void }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const [restoring, setRestoring] = useState(false);
  const query = useQuery({ queryKey: serverKeys.contextView(sessionId), queryFn: () => api.call('context.view', { sessionId }), staleTime: 0, gcTime: 0 });
  const view: ContextView | undefined = query.data;
  if (query.error) return <p role="alert">{query.error.message}</p>;
  if (!view) return <p className="muted">Reading the conversation…</p>;

  const restore = async (compactionId: string) => {
    setRestoring(true);
    try {
      await api.call('context.restore', { sessionId, compactionId });
      await queries.invalidateQueries({ queryKey: serverKeys.contextView(sessionId) });
      toasts.push({
        kind: 'success',
        title: 'The whole history is back',
        message: 'Your next message continues from before the summary. The summarised branch stays in the tree.',
      });
      onRestored();
    } catch (e) {
      toasts.error('Could not restore the full history', e);
    } finally {
      setRestoring(false);
    }
  };

  const counts = view.items.reduce<Partial<Record<ContextItemState, number>>>((c, i) => ({ ...c, [i.state]: (c[i.state] ?? 0) + 1 }), {});
  const share = view.window ? Math.round((view.sentTokens / view.window) * 100) : null;
  return (
    <div className="context-tab" data-testid="context-view">
      <p className="context-totals" data-testid="context-totals">
        The next request carries about <strong>{n(view.sentTokens)}</strong> tokens of messages
        {view.window ? ` — ${share}% of the model’s ${n(view.window)}-token window` : ''}; as stored they are about {n(view.storedTokens)}.{' '}
        {(['kept', 'masked', 'repeat', 'loop'] as const)
          .filter((s) => counts[s])
          .map((s) => `${counts[s]} ${STATE_LABELS[s]}`)
          .join(', ')}
        .
      </p>
      {view.compaction && (
        <section className="context-compaction" aria-label="Compaction summary" data-testid="context-compaction">
          <div className="context-compaction-head">
            <strong>Summarised {new Date(view.compaction.timestamp).toLocaleString()}</strong>
            <span className="muted"> — in place of about {n(view.compaction.tokensBefore)} tokens of earlier conversation</span>
            <span className="spacer" />
            <CopyButton text={view.compaction.summary} label="Copy the summary" />
            {view.compaction.restoreFrom && (
              <button
                type="button"
                className="btn"
                disabled={restoring}
                data-testid="context-restore"
                title="Go back to the message before the summary; the next message continues with the whole history. The summarised branch stays in the tree."
                onClick={() => void restore(view.compaction!.entryId)}
              >
                Restore full history
              </button>
            )}
          </div>
          <pre className="context-summary">{view.compaction.summary}</pre>
        </section>
      )}
      {view.omitted > 0 && <p className="muted">{n(view.omitted)} older messages are not listed here.</p>}
      <ol className="context-items" data-testid="context-items" tabIndex={0} aria-label="Messages as the model sees them">
        {view.items.map((item) => (
          <li key={item.entryId} className={`context-item context-${item.state}`} data-state={item.state}>
            <span className="context-role">{ROLE_LABELS[item.role] ?? item.role}</span>
            {item.toolName && <code className="context-tool">{item.toolName}</code>}
            <span className={`context-state state-${item.state}`} title={STATE_HELP[item.state]}>
              {STATE_LABELS[item.state]}
            </span>
            <span className="context-preview">{item.preview}</span>
            <span className="prompt-tokens">{item.sentTokens === item.tokens ? `~${n(item.tokens)}` : `~${n(item.sentTokens)} of ${n(item.tokens)}`}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
