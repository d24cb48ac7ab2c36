import { useEffect, useId, useMemo, useState } from 'react';
import { contentText, type Entry, isAssistant, isToolResult } from '../../shared/sessions/index.ts';
import { transcriptRows } from './subagent-rows.ts';
import type { SubagentTranscript as Transcript } from '../../shared/subagents/index.ts';
import { useApi } from '../api/index.ts';
import { describeError, Icon, Modal } from '../ui/index.ts';
import './subagents.css';

/** One entry as the read-only view shows it: who, and what (tool calls named with their arguments). */
function line(entry: Entry): { who: string; text: string } | null {
  if (entry.type !== 'message') return null;
  const m = entry.message;
  if (isToolResult(m)) return { who: `result of ${m.toolName}`, text: contentText(m.content as Parameters<typeof contentText>[0], { separator: '\n' }) };
  if (isAssistant(m)) {
    const calls = m.content.flatMap((c) => (c.type === 'toolCall' ? [`→ ${c.name} ${JSON.stringify(c.arguments)}`] : []));
    const text = [contentText(m.content as Parameters<typeof contentText>[0]), ...calls].filter((t) => t !== '').join('\n');
    return { who: m.stopReason === 'error' ? 'agent (failed)' : m.stopReason === 'aborted' ? 'agent (stopped)' : 'agent', text: text || m.errorMessage || '' };
  }
  return { who: 'task', text: contentText(m.content as Parameters<typeof contentText>[0]) };
}

/** A child agent's conversation, read-only: every message of it with its branches, the active one marked. */
export function SubagentTranscript({ childSessionId, title, onClose }: { childSessionId: string; title: string; onClose: () => void }) {
  const api = useApi();
  const titleId = useId();
  const [transcript, setTranscript] = useState<Transcript | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.call('subagents.transcript', { childSessionId }).then(
      (t) => live && setTranscript(t),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, childSessionId]);
  const rows = useMemo(() => (transcript ? transcriptRows(transcript) : []), [transcript]);
  return (
    <Modal className="modal subagent-transcript" labelledBy={titleId} testId="subagent-transcript" onEscape={onClose} onBackdrop={onClose}>
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="chat" size={18} />
        </span>
        <div>
          <h2 id={titleId}>{title}</h2>
          <p className="muted">A child agent’s conversation, read-only{rows.some((r) => r.branch) ? ', its branches included' : ''}.</p>
        </div>
      </div>
      {error && <p role="alert">{error}</p>}
      <ol className="subagent-entries" tabIndex={0} aria-label="Messages">
        {rows.flatMap((row) => {
          const shown = line(row.entry);
          if (!shown) return [];
          return [
            <li
              key={row.entry.id}
              className={`subagent-entry${row.onLeafPath ? '' : ' off-path'}`}
              style={{ marginLeft: `${row.depth * 16}px` }}
              data-testid="subagent-entry"
            >
              {row.branch && (
                <span className="chip chip-awaiting">
                  branch {row.branch.n} of {row.branch.of}
                </span>
              )}
              <span className="subagent-who">{shown.who}</span>
              <pre>{shown.text}</pre>
            </li>,
          ];
        })}
      </ol>
      <div className="modal-actions">
        <span className="spacer" />
        <button type="button" className="btn" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
