import { useEffect, useId, useState } from 'react';
import { type ThinkingLevel, ThinkingLevel as Levels } from '../../shared/agent/index.ts';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';

/**
 * The conversation's thinking level, beside the model name: each change is recorded on the branch (so a
 * branch keeps its own level) and the next reply uses it. /thinking does the same.
 */
export function ThinkingControl({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const toasts = useToasts();
  const [level, setLevel] = useState<ThinkingLevel | null>(null);
  const id = useId();

  useEffect(() => {
    let live = true;
    const load = () =>
      api.call('chat.getThinking', { sessionId }).then(
        (r) => live && setLevel(r.level),
        () => {},
      );
    void load();
    // A branch switch or /thinking moves the leaf: read the level of the branch now shown.
    const off = api.on('session.branched', (e) => e.sessionId === sessionId && void load());
    return () => {
      live = false;
      off();
    };
  }, [api, sessionId]);

  if (level === null) return null;
  return (
    <label className="thinking-control" htmlFor={id} title="How much the model thinks before it answers (where the model supports it)">
      <span>Thinking</span>
      <select
        id={id}
        value={level}
        onChange={(e) => {
          const next = Levels.parse(e.target.value);
          api.call('chat.setThinking', { sessionId, level: next }).then(
            (r) => setLevel(r.level),
            (err: unknown) => toasts.error('Could not change the thinking level', err),
          );
        }}
        data-testid="thinking-level"
      >
        {Levels.options.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
