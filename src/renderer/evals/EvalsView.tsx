import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { EvalDetail } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import './evals.css';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const money = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const PAGE = 200;

/** A pass rate as a bar, its 95% interval drawn over it. */
function RateBar({ rate, low, high }: { rate: number; low: number; high: number }) {
  return (
    <span className="eval-bar" role="img" aria-label={`${pct(rate)}, 95% interval ${pct(low)} to ${pct(high)}`}>
      <span className="eval-bar-fill" style={{ width: `${rate * 100}%` }} />
      <span className="eval-bar-interval" style={{ left: `${low * 100}%`, width: `${(high - low) * 100}%` }} />
    </span>
  );
}

/**
 * The Evals view: the evals `amber eval` ran, and for one of them a table per model (pass rate with its
 * interval, cost, time), the tasks (pass^k, flaky), and its runs page by page, each opening its conversation.
 */
export function EvalsView({ onClose, onOpenSession }: { onClose(): void; onOpenSession(sessionId: string): void }) {
  const api = useApi();
  const titleId = useId();
  const list = useQuery({ queryKey: serverKeys.evals, queryFn: () => api.call('evals.list', {}), staleTime: 0 });
  const [chosen, setChosen] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const evalId = chosen ?? list.data?.evals[0]?.evalId ?? null;
  const detail = useQuery({
    queryKey: serverKeys.evalDetail(evalId ?? '', page),
    queryFn: () => api.call('evals.get', { evalId: evalId!, offset: page * PAGE, limit: PAGE }),
    enabled: evalId !== null,
  });
  const d: EvalDetail | undefined = detail.data;
  const pages = d ? Math.max(1, Math.ceil(d.total / PAGE)) : 1;

  return (
    <Modal className="modal evals-view" labelledBy={titleId} testId="evals-view" onEscape={onClose} onBackdrop={onClose}>
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="check" size={18} />
        </span>
        <div>
          <h2 id={titleId}>Evals</h2>
          <p className="muted">
            Suites of your own tasks run with <code>npm run amber -- eval</code>. Each run is a conversation: open it to see what the agent did.
          </p>
        </div>
      </div>
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.data?.evals.length === 0 && (
        <p className="muted" data-testid="evals-empty">
          No evals yet. Run a suite, for example <code>npm run amber -- eval evals/sample --model provider/model</code>, and it appears here.
        </p>
      )}
      {list.data && list.data.evals.length > 0 && (
        <div className="evals-body">
          <ul className="evals-list" aria-label="Evals" data-testid="evals-list">
            {list.data.evals.map((e) => (
              <li key={e.evalId}>
                <button
                  type="button"
                  className={`evals-item${e.evalId === evalId ? ' is-on' : ''}`}
                  aria-current={e.evalId === evalId}
                  onClick={() => {
                    setChosen(e.evalId);
                    setPage(0);
                  }}
                >
                  <strong>{e.suite}</strong>
                  <span className="muted">
                    {new Date(e.startedAt).toLocaleString()} · {e.models.join(', ')}
                  </span>
                  <span className="muted">
                    {e.passes}/{e.runs} runs passed
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <div className="evals-detail" data-testid="eval-detail">
            {detail.error && <p role="alert">{detail.error.message}</p>}
            {d && (
              <>
                <table className="evals-table" data-testid="eval-models">
                  <caption>Models</caption>
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Pass rate (95% interval)</th>
                      <th scope="col">Always passing</th>
                      <th scope="col">Flaky</th>
                      <th scope="col">Cost per run</th>
                      <th scope="col">Time per run</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.models.map((m) => (
                      <tr key={m.model}>
                        <th scope="row">{m.model}</th>
                        <td>
                          <RateBar rate={m.passRate} low={m.interval.low} high={m.interval.high} /> {pct(m.passRate)} ({m.passes}/{m.runs}){' '}
                          <span className="muted">
                            {pct(m.interval.low)}–{pct(m.interval.high)}
                          </span>
                        </td>
                        <td>
                          {m.tasksAlwaysPassing}/{m.tasks}
                        </td>
                        <td>{m.flakyTasks}</td>
                        <td>{money(m.meanCostPerRun)}</td>
                        <td>{secs(m.meanMs)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <table className="evals-table" data-testid="eval-tasks">
                  <caption>Tasks</caption>
                  <thead>
                    <tr>
                      <th scope="col">Task</th>
                      <th scope="col">Model</th>
                      <th scope="col">Passed</th>
                      <th scope="col">Every try (pass^k)</th>
                      <th scope="col" />
                    </tr>
                  </thead>
                  <tbody>
                    {d.tasks.map((t) => (
                      <tr key={`${t.model}/${t.taskId}`} data-task={t.taskId}>
                        <th scope="row">{t.taskId}</th>
                        <td>{t.model}</td>
                        <td>
                          {t.passes}/{t.runs}
                        </td>
                        <td>{t.passHatK ? 'yes' : 'no'}</td>
                        <td>{t.flaky && <span className="chip chip-awaiting">flaky</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <h3 className="evals-runs-title">
                  Runs {d.total > PAGE ? `${page * PAGE + 1}–${Math.min(d.total, (page + 1) * PAGE)} of ${d.total}` : `(${d.total})`}
                </h3>
                <ol className="evals-runs" data-testid="eval-runs">
                  {d.runs.map((r) => (
                    <li key={`${r.model}/${r.taskId}/${r.attempt}`} className={r.passed ? 'is-passed' : 'is-failed'} data-run={`${r.taskId}#${r.attempt}`}>
                      <span className={`chip ${r.passed ? 'chip-ok' : 'chip-error'}`}>{r.passed ? 'passed' : r.end === 'done' ? 'failed' : r.end}</span>
                      <span className="evals-run-name">
                        {r.taskId} · {r.model} · try {r.attempt}
                      </span>
                      <span className="muted evals-run-why">
                        {r.passed
                          ? `${r.steps} steps, ${secs(r.ms)}`
                          : (r.error ??
                            r.checks
                              .filter((c) => !c.passed)
                              .map((c) => c.detail)
                              .join('; '))}
                      </span>
                      <button type="button" className="btn btn-small" onClick={() => onOpenSession(r.sessionId)} data-testid="eval-open-run">
                        Open
                      </button>
                    </li>
                  ))}
                </ol>
                {pages > 1 && (
                  <div className="evals-pages">
                    <button type="button" className="btn btn-small" disabled={page === 0} onClick={() => setPage(page - 1)}>
                      Previous
                    </button>
                    <span className="muted">
                      Page {page + 1} of {pages}
                    </span>
                    <button type="button" className="btn btn-small" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                      Next
                    </button>
                  </div>
                )}
              </>
            )}
          </div>
        </div>
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
