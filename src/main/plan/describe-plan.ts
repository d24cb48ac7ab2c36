import { doneCount, type PlanItem } from '../../shared/plan/index.ts';

const MARK = { done: '✓', in_progress: '▸', pending: '○' } as const;

/** The plan as `/plan` prints it: a count, then one line per item. */
export function describePlan(items: readonly PlanItem[], enabled: boolean): string {
  if (items.length === 0)
    return enabled
      ? 'This branch has no plan yet: the agent writes one with the todo tool when a task has several steps.'
      : 'This branch has no plan. The todo tool is off: switch it on in Settings or with /set agent.todo on.';
  return [`Plan: ${doneCount(items)} of ${items.length} done.`, ...items.map((i) => `${MARK[i.status]} ${i.text}`)].join('\n');
}
