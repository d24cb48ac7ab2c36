/** One version of a message among its siblings, as the tree or the switcher knows it. */
export interface VersionFacts {
  /** The words, without markdown (a preview may be clipped with a closing "…"). */
  text: string;
  /** When it was written, ms since the epoch. */
  at?: number | undefined;
  model?: string | undefined;
}

/** What tells one version apart from its siblings. */
export interface VersionMark {
  /** The first words where it differs from the sibling it is most like ('' when it has no words of its own). */
  words: string;
  /** Words come before (…cats) or after (cats…) the ones shown. */
  cutBefore: boolean;
  cutAfter: boolean;
  /** The words after the ones shown (with a closing "…" where the text was clipped). */
  rest: string;
  /** When it was written: the time, with the day when the versions were written on different days. */
  time: string | null;
  /** Its model, only when the versions were not all written by the same one. */
  model: string | null;
}

const CLIPPED = '…';
const MAX_WORDS = 6;
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY_TIME = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

const dayOf = (at: number): string => new Date(at).toDateString();

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffix(a: readonly string[], b: readonly string[], keep: number): number {
  let n = 0;
  while (n < a.length - keep && n < b.length - keep && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * For each version, what distinguishes it from the others: the span of words from the first word where it
 * differs from the sibling it shares the longest opening with (so from every sibling) up to where the two
 * agree again, at most `maxWords`; its time; and its model when the models differ. A clipped text (ending
 * in "…") is not compared by its end.
 */
export function versionMarks(
  versions: readonly VersionFacts[],
  maxWords = MAX_WORDS,
  format: (at: number, withDay: boolean) => string = defaultFormat,
): VersionMark[] {
  const clipped = versions.map((v) => v.text.endsWith(CLIPPED));
  const words = versions.map((v, i) => (clipped[i] ? v.text.slice(0, -1) : v.text).split(/\s+/).filter(Boolean));
  const models = new Set(versions.map((v) => v.model ?? ''));
  const days = new Set(versions.flatMap((v) => (v.at === undefined ? [] : [dayOf(v.at)])));
  return versions.map((v, i) => {
    const own = words[i]!;
    let start = 0;
    let nearest = -1;
    words.forEach((other, j) => {
      if (j === i) return;
      const p = commonPrefix(own, other);
      if (nearest < 0 || p > start) {
        start = p;
        nearest = j;
      }
    });
    const agreeAtEnd = nearest >= 0 && !clipped[i] && !clipped[nearest] ? commonSuffix(own, words[nearest]!, start) : 0;
    const end = Math.min(own.length - agreeAtEnd, start + maxWords);
    return {
      words: own.slice(start, Math.max(end, start)).join(' '),
      cutBefore: start > 0 && start < own.length,
      cutAfter: end < own.length || clipped[i]!,
      rest: own.slice(Math.max(end, start)).join(' ') + (clipped[i] ? CLIPPED : ''),
      time: v.at === undefined ? null : format(v.at, days.size > 1),
      model: models.size > 1 ? (v.model ?? null) : null,
    };
  });
}

function defaultFormat(at: number, withDay: boolean): string {
  return (withDay ? DAY_TIME : TIME).format(at);
}
