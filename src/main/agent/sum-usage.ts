import type { AssistantMessage, Usage } from '../../shared/sessions/index.ts';

/** The usages of several replies added up: one charge for a compaction's requests. undefined when none reported any. */
export function sumUsage(replies: readonly AssistantMessage[]): Usage | undefined {
  const usages = replies.flatMap((r) => (r.usage ? [r.usage] : []));
  if (usages.length === 0) return undefined;
  const sum: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let total: number | undefined;
  let cost: NonNullable<Usage['cost']> | undefined;
  for (const u of usages) {
    sum.input += u.input;
    sum.output += u.output;
    sum.cacheRead += u.cacheRead ?? 0;
    sum.cacheWrite += u.cacheWrite ?? 0;
    if (u.totalTokens !== undefined) total = (total ?? 0) + u.totalTokens;
    if (u.cost) {
      cost ??= { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
      cost.input += u.cost.input ?? 0;
      cost.output += u.cost.output ?? 0;
      cost.cacheRead += u.cost.cacheRead ?? 0;
      cost.cacheWrite += u.cost.cacheWrite ?? 0;
      cost.total += u.cost.total ?? 0;
    }
  }
  if (total !== undefined) sum.totalTokens = total;
  if (cost) sum.cost = cost;
  return sum;
}
