import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { ShellClass } from '../../shared/agent/index.ts';
import { LineJudge } from './line-judge.ts';
import { realPath } from './real-path.ts';
import { ShellLocations } from './shell-locations.ts';

export { baseName, commandPrefix } from './command-prefix.ts';
export { literal } from './shell-words.ts';

/** How a command line was judged: its worst part decides, and `outside` lists paths beyond the workspace. */
export interface ShellVerdict {
  class: ShellClass;
  reason: string;
  /** Paths the line names that lie outside the workspace (as written); any makes the policy ask. */
  outside: string[];
  /**
   * The prefix of every command in the line (`npm test`, `ls`), by which an “always” answer is kept; null
   * when one of them has none (wrappers, shells, interpreters without a script, names known at run time),
   * or when `noAlways` says why none may be kept.
   */
  prefixes: string[] | null;
  /**
   * Protected paths the line writes, absolute (as written and where they land; for a pattern, the folder
   * it starts from): the policy always asks, and an approval makes just these writable for that call.
   * The reason then names the first and why it is protected.
   */
  protectedPaths: string[];
  /** Paths the line names in a denied root (Amber's data folder): the policy denies it in every mode. */
  denied: string[];
  /** Why no "always" answer may be kept for this line (interpreters, git config, data sent, output files). */
  noAlways?: string;
}

export interface ShellClassifyOptions {
  /** Absolute workspace folder: the command's working directory. */
  workspaceRoot: string;
  /** What `~` means; the user's home folder by default. */
  home?: string;
  /** Folders no tool may name in any mode (Amber's data folder). */
  deniedRoots?: readonly string[];
  /** Where a path leads, symlinks followed (see real-path.ts); the file system's answer by default. */
  realPath?: (path: string) => string;
}

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads tree-sitter's bash grammar (WASM) once. Until it has loaded, every line is judged 'unknown', so a
 * caller that cannot wait still fails safe.
 */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/**
 * Judges a shell command line before it runs, on every command in it: pipelines, lists, subshells,
 * substitutions, redirections, wrappers (sudo, env, xargs, find -exec, …) and `sh -c` strings. Anything
 * that does not parse, or that cannot be judged from its text, is 'unknown'. Every path it names is judged
 * as the file tools judge theirs: after the line's `cd`s, with links followed (the only file system reads).
 */
export function shellClassify(line: string, options: ShellClassifyOptions): ShellVerdict {
  const home = options.home ?? homedir();
  const deniedRoots = options.deniedRoots ?? [];
  const denied = namesDeniedRoot(line, home, deniedRoots, options.realPath ?? realPath);
  if (!parser)
    return {
      class: 'unknown',
      reason: 'The shell parser is not loaded yet, so the command could not be judged.',
      outside: [],
      prefixes: null,
      protectedPaths: [],
      denied,
    };
  const judge = new LineJudge(parser, new ShellLocations({ root: options.workspaceRoot, home, deniedRoots, realPath: options.realPath ?? realPath }));
  for (const d of denied) judge.mentions(d);
  judge.line(line, 0);
  return judge.verdict();
}

/**
 * A denied root written anywhere in the line, even inside a script or a quoted string (`python -c "open(…)"`):
 * as written, through its real path, or after `~`/`$HOME` (the line's only expansion known before it runs).
 */
function namesDeniedRoot(line: string, home: string, roots: readonly string[], real: (p: string) => string): string[] {
  if (roots.length === 0) return [];
  const expanded = line.replace(/\$\{HOME\}|\$HOME|(?<![\w.~/-])~(?=\/|$|[\s"'])/g, home);
  const found: string[] = [];
  for (const root of roots.flatMap((r) => [resolve(r), real(resolve(r))])) {
    const re = new RegExp(`(?<![A-Za-z0-9._~/-])${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9._-])`);
    if (re.test(line) || re.test(expanded)) found.push(root);
  }
  return [...new Set(found)];
}
