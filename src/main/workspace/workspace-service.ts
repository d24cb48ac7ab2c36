import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import type { SettingsService } from '../settings/index.ts';
import { checkNewWorkspace, checkWorkspace, expandHome, type WorkspaceLimits } from './workspace-check.ts';

/** The calls the workspace needs from the session store. */
export interface WorkspaceStore {
  get(sessionId: string): SessionSummary;
  setCwd(sessionId: string, cwd: string | null): SessionSummary;
}

export interface WorkspaceServiceOptions {
  store: WorkspaceStore;
  /** Where the folder last used is kept (the next new conversation's default). */
  settings: SettingsService;
  limits: WorkspaceLimits;
  /**
   * A folder chosen outside the window (AMBER_WORKSPACE, the workspace tools' `root` setting): the default
   * for new conversations until one has been used. Read at each new conversation.
   */
  configuredDefault?: () => string | null;
}

/** A conversation waiting for its folder: a tool call wants to run and none was chosen. */
export interface WorkspaceRequest {
  sessionId: string;
}

/** How many recently chosen folders the workspace picker offers. */
export const RECENT_FOLDERS = 8;

/** The folder a first conversation works in, created on first use. */
export const DEFAULT_WORKSPACE_NAME = 'Amber';

/**
 * Each conversation's workspace folder: the one place tools and the policy read their root from. A folder is
 * checked (checkWorkspace) whenever it is set; new conversations take the last one used, else the
 * configured default, else `~/Amber`. A tool call in a conversation without a folder asks the window
 * (`onDidRequest`) and waits until one is chosen, the request is declined, or the run stops.
 */
export class WorkspaceService {
  readonly #store: WorkspaceStore;
  readonly #settings: SettingsService;
  readonly #limits: WorkspaceLimits;
  readonly #configured: () => string | null;
  readonly #waiting = new Map<string, Set<(path: string | null) => void>>();
  readonly #requested = new Emitter<WorkspaceRequest>();
  readonly #settled = new Emitter<WorkspaceRequest>();
  /** A tool call needs a folder for this conversation: the window should ask for one. */
  readonly onDidRequest: Event<WorkspaceRequest> = this.#requested.event;
  /** The request was answered or withdrawn: stop asking. (A folder set is the store's summary change.) */
  readonly onDidSettle: Event<WorkspaceRequest> = this.#settled.event;

  constructor(options: WorkspaceServiceOptions) {
    this.#store = options.store;
    this.#settings = options.settings;
    this.#limits = options.limits;
    this.#configured = options.configuredDefault ?? (() => null);
  }

  /** The folder new conversations start in: not created here (see `forRun`). */
  defaultForNew(): string {
    for (const candidate of [this.#settings.get('workspace.lastUsed'), this.#configured()]) {
      if (!candidate) continue;
      const checked = checkWorkspace(candidate, this.#limits);
      if (checked.ok) return checked.path;
    }
    return join(this.#limits.home, DEFAULT_WORKSPACE_NAME);
  }

  /** The folders chosen last, newest first, that still pass the check. */
  recent(): string[] {
    return this.#settings.get('workspace.recent').filter((p) => checkWorkspace(p, this.#limits).ok);
  }

  /** Checks a folder without setting it: the reason when refused, else null. */
  problem(input: string): string | null {
    const checked = checkWorkspace(input, this.#limits);
    return checked.ok ? null : checked.reason;
  }

  /** The conversation's folder, or null when it has none yet. */
  of(sessionId: string): string | null {
    return this.#store.get(sessionId).cwd;
  }

  /**
   * Sets the conversation's folder after checking it. Throws a typed error with the reason when refused.
   * A folder set here also becomes the default of the next new conversation.
   */
  set(sessionId: string, input: string, options: { create?: boolean } = {}): SessionSummary {
    const target = this.#isDefault(input) ? this.#ensureDefault() : input;
    let checked = checkWorkspace(target, this.#limits);
    if (!checked.ok && checked.missing && options.create) {
      // Asked to create it (the window asked the user first): made only where it would be allowed.
      const planned = checkNewWorkspace(target, this.#limits);
      if (!planned.ok) throw new AmberError('invalid_input', planned.reason);
      mkdirSync(planned.path, { recursive: true });
      checked = checkWorkspace(planned.path, this.#limits);
    }
    // A missing folder is `not_found`, so the window can offer to create it.
    if (!checked.ok) throw new AmberError(checked.missing ? 'not_found' : 'invalid_input', checked.reason);
    const summary = this.#store.setCwd(sessionId, checked.path);
    this.#settings.set('workspace.lastUsed', checked.path);
    this.#settings.set('workspace.recent', [checked.path, ...this.recent().filter((p) => p !== checked.path)].slice(0, RECENT_FOLDERS));
    for (const resolve of this.#waiting.get(sessionId) ?? []) resolve(checked.path);
    this.#settle(sessionId);
    return summary;
  }

  /** The folder a new conversation gets; `input` (e.g. the API's `cwd`) is checked like any other. */
  forNewConversation(input: string | null | undefined): string {
    if (input === null || input === undefined || input.trim() === '') return this.defaultForNew();
    const checked = checkWorkspace(input, this.#limits);
    if (!checked.ok) throw new AmberError('invalid_input', checked.reason);
    return checked.path;
  }

  /**
   * The root a run's tool calls use: the conversation's folder (the default one is created on first use),
   * checked again now — a folder stored by an import or an older version that does not pass (`/`, the data
   * folder, one since deleted) is not used — or else the one the user chooses when asked. Null when declined
   * or stopped.
   */
  async forRun(sessionId: string, signal: AbortSignal): Promise<string | null> {
    const current = this.of(sessionId);
    if (current !== null) {
      if (this.#isDefault(current)) this.#ensureDefault();
      const checked = checkWorkspace(current, this.#limits);
      if (checked.ok) return checked.path;
    }
    if (signal.aborted) return null;
    return new Promise<string | null>((resolve) => {
      const listeners = this.#waiting.get(sessionId) ?? new Set();
      const first = listeners.size === 0;
      const done = (path: string | null) => {
        signal.removeEventListener('abort', onAbort);
        listeners.delete(done);
        resolve(path);
      };
      const onAbort = () => {
        done(null);
        if (listeners.size === 0) this.#settle(sessionId);
      };
      listeners.add(done);
      this.#waiting.set(sessionId, listeners);
      signal.addEventListener('abort', onAbort, { once: true });
      if (first) this.#requested.fire({ sessionId });
    });
  }

  /** Conversations whose tool calls wait for a folder (a window that connects later asks them). */
  pending(): WorkspaceRequest[] {
    return [...this.#waiting.keys()].map((sessionId) => ({ sessionId }));
  }

  /** The user chose no folder: the waiting tool calls are denied. */
  decline(sessionId: string): boolean {
    const listeners = this.#waiting.get(sessionId);
    if (!listeners) return false;
    for (const resolve of listeners) resolve(null);
    this.#settle(sessionId);
    return true;
  }

  /** Existing folders that complete what was typed (for a path field); at most `limit`, sorted. */
  complete(input: string, limit = 50): string[] {
    const expanded = expandHome(input.trim() === '' ? '~/' : input.trim(), this.#limits.home);
    const endsWithSep = expanded.endsWith(sep) || expanded.endsWith('/');
    const folder = endsWithSep ? expanded : dirname(expanded);
    const prefix = endsWithSep ? '' : basename(expanded);
    let names: string[];
    try {
      names = readdirSync(folder, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name.startsWith(prefix) && (prefix.startsWith('.') || !d.name.startsWith('.')))
        .map((d) => d.name);
    } catch {
      return [];
    }
    return names
      .sort((a, b) => a.localeCompare(b))
      .slice(0, limit)
      .map((name) => join(folder, name));
  }

  dispose(): void {
    for (const sessionId of this.#waiting.keys()) this.decline(sessionId);
    this.#requested.dispose();
    this.#settled.dispose();
  }

  #settle(sessionId: string): void {
    if (!this.#waiting.delete(sessionId)) return;
    this.#settled.fire({ sessionId });
  }

  #isDefault(path: string): boolean {
    return path === join(this.#limits.home, DEFAULT_WORKSPACE_NAME);
  }

  #ensureDefault(): string {
    const path = join(this.#limits.home, DEFAULT_WORKSPACE_NAME);
    mkdirSync(path, { recursive: true });
    return path;
  }
}
