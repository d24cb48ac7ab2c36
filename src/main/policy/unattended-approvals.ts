import type { ShellClass } from '../../shared/agent/index.ts';
import { AmberError } from '../errors.ts';

/** One allowance given up front: a tool by name, or one command prefix of a shell tool (`bash:npm test`). */
export interface AllowEntry {
  tool: string;
  prefix?: string;
}

/** A call the policy would have asked about, as an unattended run sees it. */
export interface UnattendedCall {
  toolName: string;
  /** The tool runs command lines: only prefixes allow it, never its name alone. */
  shell: boolean;
  /** The call changes a protected path: no allowance covers it. */
  protectedPath: boolean;
  /** For a shell tool: the line and how it was judged. */
  command?: { line: string; class: ShellClass; outside: readonly string[]; prefixes: readonly string[] | null };
}

/** What an unattended run decided about a call that would have asked. */
export interface UnattendedDecision {
  toolName: string;
  line?: string;
  allowed: boolean;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_PREFIX_CHARS = 200;
const MAX_ENTRIES = 200;

/**
 * The answers of a run with no one to ask (a scripted run, `amber run`): a question is never put to
 * anyone; a call the allowances cover runs, any other is denied at once. A shell prefix covers a line as
 * an "always" answer would: every command of the line has an allowed prefix, and the line is not
 * destructive and names no path outside the workspace. No allowance covers a protected path. Every
 * decision is kept for the run's report.
 */
export class UnattendedApprovals {
  readonly #entries: readonly AllowEntry[];
  readonly #decided: UnattendedDecision[] = [];

  constructor(allow: readonly (string | AllowEntry)[] = []) {
    if (allow.length > MAX_ENTRIES) throw new AmberError('invalid_input', `At most ${MAX_ENTRIES} allowances can be given.`);
    this.#entries = allow.map((a) => (typeof a === 'string' ? UnattendedApprovals.parse(a) : a));
  }

  /** `read` → the tool read; `bash:npm test` → the prefix `npm test` of the shell tool bash. */
  static parse(text: string): AllowEntry {
    const colon = text.indexOf(':');
    const tool = (colon === -1 ? text : text.slice(0, colon)).trim();
    if (!TOOL_NAME.test(tool))
      throw new AmberError('invalid_input', `'${clip(text)}' is not an allowance: name a tool (read) or a shell tool and a command prefix (bash:npm test).`);
    if (colon === -1) return { tool };
    const prefix = text
      .slice(colon + 1)
      .trim()
      .replace(/\s+/g, ' ');
    if (prefix === '' || prefix.length > MAX_PREFIX_CHARS || prefix.includes('\0')) {
      throw new AmberError(
        'invalid_input',
        `'${clip(text)}' names no command prefix a line can start with (1 to ${MAX_PREFIX_CHARS} characters after the colon).`,
      );
    }
    return { tool, prefix };
  }

  entries(): readonly AllowEntry[] {
    return this.#entries;
  }

  /** True when an allowance covers the call; recorded either way. */
  decide(call: UnattendedCall): boolean {
    const allowed = this.#covers(call);
    this.#decided.push({ toolName: call.toolName, ...(call.command ? { line: call.command.line } : {}), allowed });
    return allowed;
  }

  decided(): readonly UnattendedDecision[] {
    return this.#decided;
  }

  #covers(call: UnattendedCall): boolean {
    if (call.protectedPath) return false;
    const mine = this.#entries.filter((e) => e.tool === call.toolName);
    if (!call.shell) return mine.some((e) => e.prefix === undefined);
    const verdict = call.command;
    if (!verdict?.prefixes || verdict.prefixes.length === 0 || verdict.class === 'destructive' || verdict.outside.length > 0) return false;
    const prefixes = new Set(mine.flatMap((e) => (e.prefix !== undefined ? [e.prefix] : [])));
    return verdict.prefixes.every((p) => prefixes.has(p));
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
