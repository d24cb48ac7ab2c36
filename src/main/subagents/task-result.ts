import type { ToolOutput } from '../../shared/tools/index.ts';
import type { SubagentState, SubagentView, TaskDetails } from '../../shared/subagents/index.ts';
import type { ChildOutcome } from './child-run.ts';

const STATE_WORD: Record<SubagentState, string> = {
  queued: 'not started',
  running: 'running',
  done: 'done',
  failed: 'failed',
  timed_out: 'timed out',
  stopped: 'stopped',
  refused: 'refused',
};

/** The task call's one result: every child's reply whole, in task order, with its status, spend and why it ended. */
export function taskResult(mode: 'serial' | 'parallel', outcomes: readonly ChildOutcome[]): ToolOutput {
  const counts = new Map<string, number>();
  for (const { view } of outcomes) counts.set(STATE_WORD[view.state], (counts.get(STATE_WORD[view.state]) ?? 0) + 1);
  const tally = [...counts].map(([word, n]) => `${n} ${word}`).join(', ');
  const plural = outcomes.length === 1 ? 'task' : 'tasks';
  const sections = outcomes.map(({ view, reply }, i) => {
    const head = `## ${i + 1}. ${view.description} — ${STATE_WORD[view.state]}`;
    const spend = `(agent ${view.agent}; ${view.turns} model ${view.turns === 1 ? 'call' : 'calls'}, ${view.toolCalls} tool ${view.toolCalls === 1 ? 'call' : 'calls'}, ${view.tokens.toLocaleString('en')} tokens, $${view.cost.toFixed(4)}, ${(view.elapsedMs / 1000).toFixed(1)} s)`;
    const why = view.reason !== undefined ? `\n${view.reason}` : '';
    const body = reply !== '' ? `\n\n${reply}` : view.state === 'refused' ? '' : '\n\n(no reply)';
    return `${head} ${spend}${why}${body}`;
  });
  const details: TaskDetails = { subagents: outcomes.map((o) => o.view) };
  return {
    content: [{ type: 'text', text: `${outcomes.length} ${plural} (${mode}): ${tally}.\n\n${sections.join('\n\n')}` }],
    // An error only when nothing came back done: a sibling's failure never hides the others' results.
    isError: !outcomes.some((o) => o.view.state === 'done'),
    details,
  };
}

/** A view of a task a limit or a stop kept from starting. */
export function notStarted(view: SubagentView, state: 'refused' | 'stopped', reason: string): ChildOutcome {
  return { view: { ...view, state, reason }, reply: '' };
}
