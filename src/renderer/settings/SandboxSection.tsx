import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { SandboxView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';

const KIND_NAME = { bubblewrap: 'bubblewrap', seatbelt: 'the macOS sandbox (Seatbelt)' } as const;

/**
 * What the shell sandbox allows in each policy mode, or that there is none here and how to get one; the
 * switch that lets commands in write mode use the network, and the open conversation's own choice
 * (`/sandbox network on|off`), which wins over it.
 */
export function SandboxSection({ sessionId }: { sessionId: string | null }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const labelId = useId();
  // Read again on policy.changed: the switch, a conversation's choice, or the sandbox failing to start.
  const query = useQuery({ queryKey: serverKeys.sandbox(sessionId), queryFn: () => api.call('policy.sandbox', { sessionId }), staleTime: 0 });
  const view: SandboxView | null = query.data ?? null;
  const { error } = query;
  useEffect(() => {
    if (error) toasts.error('Could not read the shell sandbox', error);
  }, [error, toasts]);

  const setNetwork = async (network: boolean) => {
    try {
      queries.setQueryData(serverKeys.sandbox(sessionId), await api.call('policy.setNetwork', { network, sessionId }));
    } catch (e) {
      toasts.error('Could not change the network switch', e);
    }
  };

  const writeNetwork = view ? (view.sessionNetwork ?? view.network) : false;
  return (
    <section className="settings-section" aria-labelledby="settings-sandbox" data-testid="settings-sandbox">
      <h2 id="settings-sandbox">Shell sandbox</h2>
      {view?.available === true && view.kind && (
        <p className="muted settings-lead" data-testid="sandbox-status">
          Shell commands run inside {KIND_NAME[view.kind]}, which the operating system enforces whatever the command does. What it allows follows the
          conversation’s mode:
        </p>
      )}
      {view?.available === false && (
        <p className="plugin-reason" role="alert" data-testid="sandbox-status">
          <Icon name="alert" size={14} />
          <span>
            No sandbox: {view.reason} Every command that is not read-only asks first, and runs with your full rights if you allow it. To fix it: {view.fix}
          </span>
        </p>
      )}
      {view && (
        <div className="plugin-list">
          {view.available && (
            <>
              <div className="plugin-row" data-testid="sandbox-mode-read">
                <div className="plugin-main">
                  <strong>Read</strong>
                  <p className="plugin-desc">Files read-only, secrets and Amber’s data folder hidden, no network.</p>
                </div>
              </div>
              <div className="plugin-row" data-testid="sandbox-mode-write">
                <div className="plugin-main">
                  <strong>Write</strong>
                  <p className="plugin-desc">
                    The workspace writable except its protected paths (.git, package.json, editor and CI settings, …); network {writeNetwork ? 'on' : 'off'}
                    {view.sessionNetwork !== null ? ' for this conversation (its own choice, set with /sandbox network)' : ' (the switch below)'}.
                  </p>
                </div>
              </div>
              <div className="plugin-row" data-testid="sandbox-mode-yolo">
                <div className="plugin-main">
                  <strong>Yolo</strong>
                  <p className="plugin-desc">As write, with network.</p>
                </div>
              </div>
            </>
          )}
          <div className="plugin-row">
            <div className="plugin-main">
              <strong id={labelId}>Network in write mode</strong>
              <p className="plugin-desc">
                For every conversation that has not chosen with /sandbox network on|off{view.available ? '' : ', once a sandbox runs'}
                {view.sessionNetwork !== null
                  ? `; this one has (${view.sessionNetwork ? 'on' : 'off'}; /sandbox network default follows the switch again)`
                  : ''}
                .
              </p>
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={view.network}
              aria-labelledby={labelId}
              className={`switch${view.network ? ' is-on' : ''}`}
              onClick={() => void setNetwork(!view.network)}
              data-testid="sandbox-network"
            >
              <span />
            </button>
          </div>
        </div>
      )}
      {view?.available === true && (
        <p className="hint">
          A command you are asked about can be run outside the sandbox once, with “Run unsandboxed” in the question; that is never remembered.
        </p>
      )}
    </section>
  );
}
