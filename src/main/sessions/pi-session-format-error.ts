import { AmberError } from '../errors.ts';

export interface PiLineProblem {
  /** 1-based line number in the file. */
  line: number;
  message: string;
}

const SHOWN = 50;

/**
 * A pi session file that cannot be imported. Carries every problem found, each with its line number; the
 * message lists them (the first 50 in full) so the user can fix the file in one pass.
 */
export class PiSessionFormatError extends AmberError {
  readonly problems: readonly PiLineProblem[];

  constructor(problems: readonly PiLineProblem[]) {
    const sorted = problems.toSorted((a, b) => a.line - b.line);
    const lines = new Set(sorted.map((p) => p.line));
    const head =
      lines.size === 1
        ? `Not a valid pi session: line ${sorted[0]!.line} is malformed. Fix or remove it and try again.`
        : `Not a valid pi session: ${lines.size} lines are malformed. Fix or remove them and try again.`;
    const details = sorted.slice(0, SHOWN).map((p) => `  line ${p.line}: ${p.message}`);
    if (sorted.length > SHOWN) {
      const rest = [...new Set(sorted.slice(SHOWN).map((p) => p.line))];
      details.push(`  …and ${sorted.length - SHOWN} more problems on lines ${rest.join(', ')}`);
    }
    super('invalid_input', [head, ...details].join('\n'));
    this.name = 'PiSessionFormatError';
    this.problems = sorted;
  }
}
