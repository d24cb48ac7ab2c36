import type { ReplySource } from '../../shared/sessions/index.ts';
import { useCommands } from '../commands/index.ts';
import './reply-sources.css';

/** The plugins whose sources open through a command, and what a chip calls them. */
const OPENERS: Record<string, { name: string; command: (id: string) => string }> = {
  memory: { name: 'Memory', command: (id) => `/memory show ${id}` },
};

/**
 * What the prompt blocks of a reply's request drew on (the memories recalled for it), as chips under the
 * reply. A memory's chip runs `/memory show <id>`; its answer shows where command results show.
 */
export function ReplySources({ sources }: { sources: readonly ReplySource[] }) {
  const commands = useCommands();
  if (sources.length === 0) return null;
  return (
    <ul className="reply-sources" aria-label="What this reply drew on" data-testid="reply-sources">
      {sources.map((source) => {
        const opener = OPENERS[source.pluginId];
        const text = `${opener?.name ?? source.pluginId}: ${source.label}`;
        return (
          <li key={`${source.pluginId}:${source.id}`}>
            {opener && commands ? (
              <button
                type="button"
                className="reply-source"
                title={`${source.label}\nOpen it (${opener.command(source.id)})`}
                data-testid="reply-source"
                onClick={() => void commands.run(opener.command(source.id))}
              >
                {text}
              </button>
            ) : (
              <span className="reply-source" title={source.label} data-testid="reply-source">
                {text}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
