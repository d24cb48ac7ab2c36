import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/index.ts';

const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour12: false });

/** A plugin's newest log lines (its log calls, stdout and stderr), read when shown and on Refresh. */
export function PluginLog({ id, name }: { id: string; name: string }) {
  const api = useApi();
  const logs = useQuery({ queryKey: ['pluginLogs', id], queryFn: () => api.call('plugins.logs', { id }), staleTime: 0, gcTime: 0 });
  const lines = logs.data?.lines ?? null;
  return (
    <div className="plugin-log" data-testid="plugin-log">
      <pre role="log" aria-label={`Log of ${name}`} tabIndex={0}>
        {logs.error
          ? `The log could not be read: ${logs.error.message}`
          : lines === null
            ? 'Reading…'
            : lines.length === 0
              ? 'Nothing logged since Amber started.'
              : lines.map((l) => `${time(l.time)} ${l.level.padEnd(5)} ${l.message}`).join('\n')}
      </pre>
      <button type="button" className="btn btn-small" onClick={() => void logs.refetch()}>
        Refresh
      </button>
    </div>
  );
}
