import { Fragment, useState } from 'react';
import { usePluginListing } from '../server-state/index.ts';
import { PluginLog } from './PluginLog.tsx';

/**
 * Advanced: where each plugin runs, for someone looking into a problem — its state as the runtime names it,
 * its own process or the shared one, the process id while it runs, and how often it crashed lately.
 */
export function PluginProcessesSection() {
  const listing = usePluginListing().data ?? null;
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="settings-section" aria-labelledby="settings-processes" data-testid="settings-processes">
      <h2 id="settings-processes">Plugin processes</h2>
      <p className="muted settings-lead">
        Plugins run outside Amber's main process: Amber's own share one process (those that run commands or outside servers have their own), and each of yours
        has its own unless you group it under Plugins.
      </p>
      {!listing && <div className="skeleton" />}
      {listing && (
        <table className="process-table" data-testid="plugin-processes">
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              <th scope="col">State</th>
              <th scope="col">Process</th>
              <th scope="col">Process id</th>
              <th scope="col">Recent crashes</th>
              <th scope="col">
                <span className="sr-only">Log</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {listing.plugins.map((p) => (
              <Fragment key={p.id}>
                <tr data-testid="plugin-process-row" data-id={p.id}>
                  <th scope="row">
                    {p.name} <code className="muted">{p.id}</code>
                  </th>
                  <td>{p.state}</td>
                  <td>{p.process === 'shared' ? 'shared' : 'its own'}</td>
                  <td className="mono">{p.pid ?? '—'}</td>
                  <td>{p.recentCrashes}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-expanded={open === p.id}
                      aria-label={`Log of ${p.name}`}
                      onClick={() => setOpen((o) => (o === p.id ? null : p.id))}
                      data-testid="plugin-log-toggle"
                    >
                      Log
                    </button>
                  </td>
                </tr>
                {open === p.id && (
                  <tr>
                    <td colSpan={6}>
                      <PluginLog id={p.id} name={p.name} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
