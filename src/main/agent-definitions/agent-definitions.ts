import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentDefinition, AgentSource } from '../../shared/agent-definitions/index.ts';
import { AmberError } from '../errors.ts';
import { isInside } from '../is-inside.ts';
import { parseAgentDefinition } from './agent-definition-file.ts';
import { BUILTIN_AGENTS } from './builtin-agents.ts';

/** The workspace's agent files, relative to its root. */
export const WORKSPACE_AGENTS_DIR = join('.amber', 'agents');
/** The largest agent file read; a bigger one is skipped with a problem. */
export const AGENT_FILE_LIMIT = 256 * 1024;

/** Which workspace definitions the user confirmed, per workspace (its real path): name → content hash. */
export interface AgentConfirmations {
  get(workspaceRoot: string): Readonly<Record<string, string>>;
  set(workspaceRoot: string, confirmed: Record<string, string>): void;
}

/** A workspace definition waiting for the user's confirmation (new, or changed since it was confirmed). */
export interface PendingAgent {
  definition: AgentDefinition;
  /** The file's content hash, what a confirmation remembers. */
  hash: string;
  /** True when an earlier version was confirmed and the file changed since. */
  changed: boolean;
}

/** A definition hidden by one of the same name from a nearer folder. */
export interface OverriddenAgent {
  name: string;
  source: AgentSource;
  path?: string;
  by: AgentSource;
}

/** Everything `/agents` shows: what may be used, what waits for a confirmation, what was replaced or skipped. */
export interface AgentScan {
  definitions: AgentDefinition[];
  pending: PendingAgent[];
  overridden: OverriddenAgent[];
  /** Files skipped, each a sentence naming the file and what is wrong with it. */
  problems: string[];
}

export interface AgentDefinitionsOptions {
  /** The user's own agent files (the data folder's `agents/`). */
  userDir: string;
  confirmations: AgentConfirmations;
  /** Where a skipped file is reported besides scan().problems. Default: console.warn. */
  log?: (message: string) => void;
}

interface FileDefinition {
  definition: AgentDefinition;
  hash: string;
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The agents the task tool can start: the built-ins, the user's (`<data>/agents/*.md`) and the workspace's
 * (`.amber/agents/*.md`); a nearer one replaces one of the same name (workspace over user over built-in).
 * Workspace files come with the repository, so each is offered only once the user confirmed its content;
 * a changed file asks again. Files are read at each call, so an edit shows at once. Never throws on a bad
 * file: it is skipped and named in `problems`.
 */
export class AgentDefinitions {
  readonly #options: AgentDefinitionsOptions;
  readonly #log: (message: string) => void;
  readonly #logged = new Set<string>();

  constructor(options: AgentDefinitionsOptions) {
    this.#options = options;
    this.#log = options.log ?? ((m) => console.warn(m));
  }

  /** The definitions that may be used: built-ins, the user's, and the workspace's confirmed ones. */
  async list(workspaceRoot?: string): Promise<AgentDefinition[]> {
    return (await this.scan(workspaceRoot)).definitions;
  }

  async get(name: string, workspaceRoot?: string): Promise<AgentDefinition | undefined> {
    return (await this.list(workspaceRoot)).find((d) => d.name === name);
  }

  /** The workspace's definitions not yet confirmed (or changed since). */
  async pending(workspaceRoot: string): Promise<PendingAgent[]> {
    return (await this.scan(workspaceRoot)).pending;
  }

  /**
   * Confirms one pending workspace definition by name, or all of them, as their files are now. Returns the
   * names confirmed; throws `not_found` when `name` is not a pending definition of this workspace.
   */
  async confirm(workspaceRoot: string, name: string | 'all'): Promise<string[]> {
    const root = await realpath(workspaceRoot).catch(() => {
      throw new AmberError('not_found', `The workspace folder ${workspaceRoot} cannot be found, so none of its agents can be confirmed.`);
    });
    const pending = await this.pending(root);
    const chosen = name === 'all' ? pending : pending.filter((p) => p.definition.name === name);
    if (name !== 'all' && chosen.length === 0) {
      const names = pending.map((p) => p.definition.name);
      throw new AmberError(
        'not_found',
        names.length === 0
          ? `No agent of this workspace waits for a confirmation (there is none named ${name}).`
          : `No agent named ${name} waits for a confirmation; waiting: ${names.join(', ')}.`,
      );
    }
    if (chosen.length === 0) return [];
    const confirmed = { ...this.#options.confirmations.get(root) };
    for (const p of chosen) confirmed[p.definition.name] = p.hash;
    this.#options.confirmations.set(root, confirmed);
    return chosen.map((p) => p.definition.name);
  }

  async scan(workspaceRoot?: string): Promise<AgentScan> {
    const problems: string[] = [];
    const user = await this.#readDir(this.#options.userDir, 'user', problems);
    let workspace: FileDefinition[] = [];
    let confirmed: Readonly<Record<string, string>> = {};
    if (workspaceRoot !== undefined) {
      const root = await realpath(workspaceRoot).catch(() => null);
      if (root !== null) {
        workspace = await this.#readWorkspace(root, problems);
        confirmed = this.#options.confirmations.get(root);
      }
    }
    const pending: PendingAgent[] = [];
    const usable: FileDefinition[] = [];
    for (const w of workspace) {
      const known = confirmed[w.definition.name];
      if (known === w.hash) usable.push(w);
      else pending.push({ definition: w.definition, hash: w.hash, changed: known !== undefined });
    }
    const byName = new Map<string, AgentDefinition>();
    const overridden: OverriddenAgent[] = [];
    for (const definition of [...BUILTIN_AGENTS, ...user.map((u) => u.definition), ...usable.map((u) => u.definition)]) {
      const before = byName.get(definition.name);
      if (before) overridden.push({ name: before.name, source: before.source, ...(before.path ? { path: before.path } : {}), by: definition.source });
      byName.set(definition.name, definition);
    }
    // Each skipped file is logged once per problem, not at every read.
    for (const p of problems) {
      if (this.#logged.has(p)) continue;
      this.#logged.add(p);
      this.#log(`Agent file skipped: ${p}`);
    }
    return { definitions: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), pending, overridden, problems };
  }

  async #readWorkspace(root: string, problems: string[]): Promise<FileDefinition[]> {
    const dir = join(root, WORKSPACE_AGENTS_DIR);
    // The folder may be a link; what it names must still be inside the workspace.
    const real = await realpath(dir).catch(() => null);
    if (real === null) return [];
    if (!isInside(root, real)) {
      problems.push(`${dir}: the folder leads outside the workspace; its agents are not read.`);
      return [];
    }
    return this.#readDir(real, 'workspace', problems);
  }

  async #readDir(dir: string, source: 'user' | 'workspace', problems: string[]): Promise<FileDefinition[]> {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${dir}: the folder cannot be read (${(e as Error).message}).`);
      return [];
    }
    const found: FileDefinition[] = [];
    for (const name of names) {
      const path = join(dir, name);
      const info = await lstat(path).catch(() => null);
      // Links are not followed: a workspace's link could name any file of the user's.
      if (!info?.isFile()) continue;
      if (info.size > AGENT_FILE_LIMIT) {
        problems.push(`${path}: the file is larger than ${AGENT_FILE_LIMIT / 1024} KB.`);
        continue;
      }
      const text = await readFile(path, 'utf8').catch(() => null);
      if (text === null) {
        problems.push(`${path}: the file cannot be read.`);
        continue;
      }
      const read = parseAgentDefinition(text, { source, path });
      if (!read.ok) {
        problems.push(read.problem);
        continue;
      }
      const twin = found.find((f) => f.definition.name === read.definition.name);
      if (twin) {
        problems.push(`${path}: the name ${read.definition.name} is already used by ${twin.definition.path}.`);
        continue;
      }
      found.push({ definition: read.definition, hash: hashOf(text) });
    }
    return found;
  }
}
