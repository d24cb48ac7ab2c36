/**
 * How many tools each server may offer so that all of them fit in `budget`: a server that lists fewer than
 * an equal share of what is left offers them all, and the rest is shared equally by the larger ones.
 */
export function shareTools(counts: readonly number[], budget: number): number[] {
  const shares = counts.map(() => 0);
  const bySize = counts.map((_, i) => i).sort((a, b) => counts[a]! - counts[b]!);
  let left = budget;
  for (const [k, i] of bySize.entries()) {
    shares[i] = Math.min(counts[i]!, Math.floor(left / (bySize.length - k)));
    left -= shares[i];
  }
  return shares;
}
