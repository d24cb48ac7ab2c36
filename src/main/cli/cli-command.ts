import type { App, AppOptions } from '../app.ts';
import type { SessionStore } from '../sessions/index.ts';

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

/** What every command says of itself: its words, arguments, options and summary (usage is made of these). */
interface CommandShape {
  /** The words that name it, e.g. ['sessions', 'list']. */
  words: readonly string[];
  /** Its positional arguments, for usage lines and the arity check. */
  args: readonly string[];
  /** Options beyond --json, --data-dir and --help that it accepts, as usage shows them (`session ID`). */
  options?: readonly string[];
  summary: string;
}

/** What a command on conversations alone gets: the data folder's conversations, opened without the rest of the core. */
export interface SessionsCore {
  readonly dataDir: string;
  readonly sessions: SessionStore;
}

/**
 * A command that reads or writes conversations and nothing else (list, check, import, export): it runs against
 * the session store alone, so it starts without loading or building the agent, the plugins or the policy.
 */
export interface SessionsCommand extends CommandShape {
  opens: 'sessions';
  run(core: SessionsCore, args: readonly string[], flags: CliFlags): CliOutput | Promise<CliOutput>;
}

/** A command that runs against an opened core; it throws AmberErrors a user can act on. */
export interface CoreCommand extends CommandShape {
  opens?: 'core';
  /** How its core is built (default: plugins not started). Throws an AmberError for flags that cannot work. */
  core?(flags: CliFlags, args: readonly string[]): Omit<AppOptions, 'dataDir'>;
  run(app: App, args: readonly string[], flags: CliFlags): CliOutput | Promise<CliOutput>;
}

/** One command of `amber`. */
export type CliCommand = SessionsCommand | CoreCommand;
