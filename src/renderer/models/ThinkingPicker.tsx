import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { type ThinkingLevel, ThinkingLevel as Levels } from '../../shared/agent/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';

/**
 * The conversation's thinking level, beside the model: each change is recorded on the branch (so a branch
 * keeps its own level) and the next reply uses it. /thinking does the same.
 */
export function ThinkingPicker({ sessionId, running }: { sessionId: string; running: boolean }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // A branch switch or /thinking moves the leaf: session.leafMoved has the level of the branch now shown read.
  const level: ThinkingLevel | null =
    useQuery({ queryKey: serverKeys.thinking(sessionId), queryFn: () => api.call('chat.getThinking', { sessionId }), staleTime: 0 }).data?.level ?? null;
  const id = useId();

  if (level === null) return null;
  return (
    <label className="thinking-picker" htmlFor={id} title="How much the model thinks before it answers (where the model supports it)">
      <Icon name="brain" size={14} />
      <span className="visually-hidden">Thinking</span>
      <select
        id={id}
        value={level}
        disabled={running}
        onChange={(e) => {
          const next = Levels.parse(e.target.value);
          api.call('chat.setThinking', { sessionId, level: next }).then(
            (r) => queries.setQueryData(serverKeys.thinking(sessionId), r),
            (err: unknown) => toasts.error('Could not change the thinking level', err),
          );
        }}
        data-testid="thinking-level"
      >
        {Levels.options.map((l) => (
          <option key={l} value={l}>
            {l === 'off' ? 'Thinking off' : `Thinking ${l}`}
          </option>
        ))}
      </select>
    </label>
  );
}
