import type { App, AppOptions } from '../app.ts';

/** What a command prints: `json` with --json, else `text` (one or more lines, no trailing newline). */
export interface CliOutput {
  json: unknown;
  text: string;
  /** The exit code when the command ran but found a problem to report (default 0). */
  exitCode?: number;
}

/** The options of a command line beyond --json, --data-dir and --help (each command says which it takes). */
export interface CliFlags {
  force: boolean;
  cwd: string;
  /** `--session ID`: an existing conversation. */
  session?: string;
  /** `--new`: a new conversation. */
  new: boolean;
  /** `--workspace DIR`: the conversation's workspace folder. */
  workspace?: string;
  /** `--allow TOOL` or `--allow TOOL:PREFIX`, repeatable. */
  allow: string[];
  /** `--since-last`: only what is newer than the last run of the command (sessions check; its default now). */
  sinceLast: boolean;
  /** `--full`: all of it, not only what is newer than the last run (sessions check). */
  full: boolean;
  /** `--model PROVIDER/MODEL`, repeatable (eval). */
  models: string[];
  /** `--repeat N` and `--concurrency K` (eval). */
  repeat?: number;
  concurrency?: number;
  /** `--judge PROVIDER/MODEL`: the model that grades rubric checks (eval). */
  judge?: string;
  /** `--out DIR`: where a command writes its reports (eval). */
  out?: string;
  /** `--resume`: complete an interrupted run found in --out (eval). */
  resume: boolean;
  /** Writes a line of progress to stderr (stdout keeps only the result). */
  progress(line: string): void;
}

/** One command of `amber`; it runs against an opened core and throws AmberErrors a user can act on. */
export interface CliCommand {
  /** The words that name it, e.g. ['sessions', 'list']. */
  words: readonly string[];
  /** Its positional arguments, for usage lines and the arity check. */
  args: readonly string[];
  /** Options beyond --json, --data-dir and --help that it accepts, as usage shows them (`session ID`). */
  options?: readonly string[];
  summary: string;
  /** How its core is built (default: plugins not started). Throws an AmberError for flags that cannot work. */
  core?(flags: CliFlags, args: readonly string[]): Omit<AppOptions, 'dataDir'>;
  run(app: App, args: readonly string[], flags: CliFlags): CliOutput | Promise<CliOutput>;
}
