import type { ShellClass } from '../../shared/agent/index.ts';

/** One argument as written: its static value (null when only known at run time) and whether it globs. */
export interface ShellArg {
  value: string | null;
  raw: string;
  glob: boolean;
}

/** What a command's rule may tell the judge of the whole line. */
export interface ShellJudge {
  note(cls: ShellClass, reason: string): void;
  /** Checks a path-like argument against the workspace (devices, `~`, absolute and `..` paths). */
  path(value: string, mode: 'read' | 'write'): void;
  /** An argument known only at run time that visibly starts outside (`$HOME`, `~`). */
  dynamicPath(raw: string): void;
  /** Judges a nested command line (`sh -c '…'`). */
  line(text: string, depth: number): void;
}

export const isOption = (a: ShellArg) => a.value !== null && a.value.startsWith('-') && a.value !== '-';
export const values = (args: readonly ShellArg[]) => args.map((a) => a.value ?? '');
/** Whether any option is `long`, or a short cluster (`-rf`) holds one of `letters`. */
export function has(args: readonly ShellArg[], letters: string, ...long: string[]): boolean {
  return args.some((a) => {
    const v = a.value;
    if (v === null || !v.startsWith('-')) return false;
    if (v.startsWith('--')) return long.some((l) => v === l || v.startsWith(`${l}=`));
    if (long.includes(v)) return true;
    return Array.from(v.slice(1)).some((c) => letters.includes(c));
  });
}
export const positional = (args: readonly ShellArg[]) => args.filter((a) => !isOption(a));
