import { useEffect, useState } from 'react';
import type { SubagentView } from '../../shared/subagents/index.ts';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';
import { SubagentTranscript } from './SubagentTranscript.tsx';
import { elapsedLabel, mergeRow, rowsFromDetails, STATE_CHIP, STATE_LABEL, tokensLabel } from './subagent-rows.ts';
import type { ToolCallView } from './transcript-model.ts';
import './subagents.css';

/**
 * A task call's children, one row each: description, state, model and tool calls, tokens, cost and time,
 * updated live from main's events while the call runs and read from its result once it has ended. A running
 * row has Stop; a row whose child started opens its read-only transcript.
 */
export function SubagentRows({ tool }: { tool: ToolCallView }) {
  const api = useApi();
  const toasts = useToasts();
  const [rows, setRows] = useState<SubagentView[]>(() => rowsFromDetails(tool.details));
  const [open, setOpen] = useState<SubagentView | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const ended = tool.details !== undefined;

  useEffect(() => {
    if (ended) {
      setRows(rowsFromDetails(tool.details));
      return;
    }
    let live = true;
    const off = api.on('subagent.changed', (view) => {
      if (view.toolCallId === tool.id) setRows((r) => mergeRow(r, view));
    });
    // Rows that changed before this card was drawn: what main holds now, under anything heard since.
    api.call('subagents.list', { toolCallId: tool.id }).then(
      (listed) => live && setRows((r) => listed.reduce((acc, view) => (acc.some((x) => x.index === view.index) ? acc : mergeRow(acc, view)), r)),
      () => {},
    );
    return () => {
      live = false;
      off();
    };
  }, [api, ended, tool.id, tool.details]);

  const running = rows.some((r) => r.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);

  if (rows.length === 0) return null;
  const stop = async (row: SubagentView) => {
    if (!row.childSessionId) return;
    try {
      await api.call('subagents.stop', { childSessionId: row.childSessionId });
    } catch (e) {
      toasts.error('Could not stop the child agent', e);
    }
  };
  return (
    <>
      <ol className="subagent-rows" data-testid="subagent-rows" aria-label="Child agents">
        {rows.map((row) => {
          const elapsed = row.state === 'running' && row.startedAt !== null ? Math.max(row.elapsedMs, now - row.startedAt) : row.elapsedMs;
          return (
            <li key={row.index} className={`subagent-row subagent-${row.state}`} data-testid="subagent-row" data-state={row.state}>
              <span className="subagent-desc" title={row.reason ?? row.description}>
                {row.description}
              </span>
              <span className="subagent-agent muted">{row.agent}</span>
              {row.state === 'running' && row.asking ? (
                <span className="chip chip-awaiting" data-testid="subagent-asking">
                  needs approval
                </span>
              ) : (
                <span className={`chip ${STATE_CHIP[row.state]}`}>
                  {row.state === 'running' && <span className="spinner" aria-hidden="true" />}
                  {STATE_LABEL[row.state]}
                </span>
              )}
              <span className="subagent-stat" title="Model calls">
                {row.turns} {row.turns === 1 ? 'turn' : 'turns'}
              </span>
              <span className="subagent-stat" title="Tool calls">
                {row.toolCalls} {row.toolCalls === 1 ? 'tool' : 'tools'}
              </span>
              <span className="subagent-stat" title="Tokens in and out">
                {tokensLabel(row.tokens)} tok
              </span>
              <span className="subagent-stat" title="Cost">
                ${row.cost.toFixed(row.cost < 0.01 ? 4 : 2)}
              </span>
              <span className="subagent-stat" title="Time">
                {elapsedLabel(elapsed)}
              </span>
              <span className="subagent-actions">
                {row.state === 'running' && (
                  <button type="button" className="link-btn" onClick={() => void stop(row)} aria-label={`Stop ${row.description}`}>
                    Stop
                  </button>
                )}
                {row.childSessionId !== null && (
                  <button type="button" className="link-btn" onClick={() => setOpen(row)} data-testid="subagent-open">
                    Open transcript
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      {open?.childSessionId && <SubagentTranscript childSessionId={open.childSessionId} title={open.description} onClose={() => setOpen(null)} />}
    </>
  );
}
