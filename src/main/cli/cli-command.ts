import type { App } from '../app.ts';

/** What a command prints: `json` with --json, else `text` (one or more lines, no trailing newline). */
export interface CliOutput {
  json: unknown;
  text: string;
  /** The exit code when the command ran but found a problem to report (default 0). */
  exitCode?: number;
}

/** One command of `amber`; it runs against an opened core and throws AmberErrors a user can act on. */
export interface CliCommand {
  /** The words that name it, e.g. ['sessions', 'list']. */
  words: readonly string[];
  /** Its positional arguments, for usage lines and the arity check. */
  args: readonly string[];
  /** Options beyond --json, --data-dir and --help that it accepts. */
  options?: readonly string[];
  summary: string;
  run(app: App, args: readonly string[], flags: { force: boolean; cwd: string }): CliOutput;
}
