/** How many segments a line of `available` px shows, given each one's natural width, in priority order. */
export interface SegmentFit {
  /** The first `shown` segments are on the line; the rest go to the overflow list. */
  shown: number;
  /** A width for the last shown segment when it only fits cut short (ellipsis), else null. */
  lastWidth: number | null;
}

/** Below this a cut segment says too little: it goes to the overflow instead. */
export const MIN_CUT_PX = 56;

/**
 * Fits segments on one line by priority: whole segments while they fit; the next one cut short when at
 * least MIN_CUT_PX is left; the rest go to an overflow (whose button takes `overflowButton` px when needed).
 */
export function fitSegments(widths: readonly number[], available: number, overflowButton: number): SegmentFit {
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= available) return { shown: widths.length, lastWidth: null };
  const room = available - overflowButton;
  let used = 0;
  for (let i = 0; i < widths.length; i++) {
    const w = widths[i]!;
    if (used + w <= room) {
      used += w;
      continue;
    }
    const left = room - used;
    return left >= MIN_CUT_PX ? { shown: i + 1, lastWidth: Math.floor(left) } : { shown: i, lastWidth: null };
  }
  return { shown: widths.length, lastWidth: null };
}
