import type { ShellClass } from '../../shared/agent/index.ts';

/** One argument as written: its static value (null when only known at run time) and whether it globs. */
export interface ShellArg {
  value: string | null;
  raw: string;
  glob: boolean;
  /**
   * The words the shell makes of it, when that is known though it is not one literal word: a brace
   * expansion (`{a,b}/x`), or a loop variable over literal words (`"$f"` in `for f in *.md`).
   */
  expands?: string[];
  /**
   * A path the shell or a search makes at run time from folders already checked: `{}` of `find -exec`,
   * the input of `xargs` after a file lister, `$(git ls-files)`, a process substitution's `/dev/fd/N`.
   */
  found?: boolean;
}

/** What a command's rule may tell the judge of the whole line. */
export interface ShellJudge {
  note(cls: ShellClass, reason: string): void;
  /** Says why no "always" answer may be kept for this line (interpreters, network with data, output files…). */
  noAlways(reason: string): void;
  /**
   * Checks a path the line names, as the file tools would: resolved from every folder the line may be in
   * (after its `cd`s), `~` as the home folder, links followed. Finds paths outside the workspace, in the
   * data folder, and (for writes) protected paths.
   */
  path(value: string, mode: 'read' | 'write', glob?: boolean): void;
  /** `path` for an argument: one known only at run time cannot be judged (`$HOME/x`, `$(…)`, `~user`). */
  arg(arg: ShellArg, mode: 'read' | 'write'): void;
  /** `cd`/`pushd`: later paths in the line are resolved from the folder it moves to. */
  cd(name: string, args: readonly ShellArg[]): void;
  /**
   * A link the line makes: later paths through `name` lead to `target` (`symbolic`: read from the link's
   * folder, as `ln -s` does; `hard`: the same file; `moved`: `mv`/`cp` of what may itself be a link).
   */
  link(target: string, name: string, kind: 'symbolic' | 'hard' | 'moved'): void;
  /** Judges a nested command line (`sh -c '…'`). */
  line(text: string, depth: number): void;
  /** Whether this command's input is a list of paths from a file lister (`find … | xargs cmd`). */
  readonly inputIsPaths: boolean;
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

/**
 * The value an option is given, written `-o X`, `-oX`, `-abo X` (a short cluster ending in the letter),
 * `--out X` or `--out=X`; every occurrence, in order. A value only known at run time is kept as its arg.
 */
export function optionValues(args: readonly ShellArg[], letters: string, ...long: string[]): ShellArg[] {
  const out: ShellArg[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === null || !v.startsWith('-') || v === '-' || v === '--') continue;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      if (!long.includes(name)) continue;
      if (eq >= 0) out.push({ value: v.slice(eq + 1), raw: v.slice(eq + 1), glob: false });
      else if (args[i + 1]) out.push(args[++i]!);
      continue;
    }
    // A short cluster: the first letter that takes a value ends it; the rest of the cluster is the value.
    for (let j = 1; j < v.length; j++) {
      if (!letters.includes(v[j]!)) continue;
      if (j + 1 < v.length) out.push({ value: v.slice(j + 1), raw: v.slice(j + 1), glob: false });
      else if (args[i + 1]) out.push(args[++i]!);
      break;
    }
  }
  return out;
}

/** A literal argument with this value (for rules that make up an argument, like `package.json`). */
export const word = (value: string): ShellArg => ({ value, raw: value, glob: false });
