import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { ApprovalAnswer, PolicyMode, PolicyRules, type ApprovalQuestion, type PolicyRule } from '../../shared/agent/index.ts';
import { toDisposable, type Disposable } from '../../shared/disposable.ts';
import { callSignature, protectedReason, type ShellSandbox, type ToolSpec } from '../../shared/tools/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import { mcpReadOnlyTrust } from './mcp-trust.ts';
import { isInside } from './path-confinement.ts';
import { realPath } from './real-path.ts';
import { SandboxService } from './sandbox-service.ts';
import { isShellTool, ShellPolicy, type ShellJudgement } from './shell-policy.ts';

/** The two settings calls the policy needs (SessionStore has them). */
export interface SettingsStore {
  getSetting(key: string): string | null;
  setSetting(key: string, value: string | null): void;
}

/**
 * Asks a person. Resolves with their answer; rejecting or being absent counts as a denial. `signal` aborts
 * when the question is withdrawn: its run stopped, or a grant or rule now decides the call. The reason is
 * then a QuestionWithdrawn saying how the call was decided.
 */
export type Approver = (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** The abort reason of a withdrawn question: `once` when the call now runs without asking, else `deny`. */
export class QuestionWithdrawn extends Error {
  readonly outcome: 'once' | 'deny';
  constructor(outcome: 'once' | 'deny') {
    super(outcome === 'once' ? 'The question was withdrawn: the call is now allowed.' : 'The question was withdrawn: the call was not run.');
    this.outcome = outcome;
  }
}

/** Who contributed a tool. A user plugin's `readOnly` holds only once the user confirmed it. */
export interface ToolOrigin {
  pluginId: string;
  /** Shipped with Amber: its `readOnly` is trusted. */
  bundled: boolean;
}

export interface ToolRequest {
  sessionId: string;
  /** Absolute path of the session's workspace. */
  workspaceRoot: string;
  tool: ToolSpec;
  toolCallId: string;
  args: Record<string, unknown>;
  /** Absent: the tool is the app's own, and its `readOnly` is trusted. */
  origin?: ToolOrigin;
}

/** `sandbox`: how a shell call must be confined; set on every allowed call of a shell tool, on no other. */
export type GateDecision = { allowed: true; sandbox?: ShellSandbox } | { allowed: false; reason: string };

/** What tool dispatch asks before running a call. Must not throw for a plain refusal: return the reason. */
export interface ToolGate {
  authorize(request: ToolRequest, signal: AbortSignal): Promise<GateDecision>;
  /**
   * A call that was given a sandbox came back saying none could start (the probe said one could): from now
   * on the gate assumes none. `detail` is what the tool said. Must not throw.
   */
  sandboxUnavailable?(detail: string): void;
}

export type PolicyDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; reason: string }
  /** `protectedPath`: the call changes a protected path, which no grant or allow rule covers. */
  | { kind: 'ask'; reason: string; folder: string | null; protectedPath: boolean; shell?: ShellJudgement };

/** A session grant recorded from an "always" answer; lives as long as this process. */
export type Grant = { tool: string } | { folder: string };

export interface PolicyServiceOptions {
  store: SettingsStore;
  approver?: Approver;
  /** Mode of a session that has none stored. */
  defaultMode?: PolicyMode;
  newId?: () => string;
  /** Folders no tool may name in any mode, read-only tools included (Amber's data folder). */
  deniedRoots?: readonly string[];
  /** Where a write to a path lands, symlinks followed. Default: the file system's answer. */
  realPath?: (path: string) => string;
  /** How shell tools are judged (on their command line). Default: tree-sitter's bash grammar. */
  shell?: ShellPolicy;
  /** Whether a sandbox can start, and the network setting each shell call's sandbox follows. Default: probed here. */
  sandbox?: SandboxService;
}

const RULES_KEY = 'policy.rules';
const modeKey = (sessionId: string): string => `policy.mode.${sessionId}`;
const readOnlyKey = (pluginId: string): string => `policy.readOnlyConfirmed.${pluginId}`;
const PLUGIN_ID = /^[a-z0-9_]{1,64}$/;

/**
 * The paths a call names in the parameters its tool declares as paths (`pathParams`), resolved lexically
 * against the workspace root. A declared parameter left out counts as its schema default, if that is a
 * path. A leading `~` is read as the home folder, as a tool that expands it would: judging it inside the
 * workspace could wave through a write to the home folder. `unreadable` is true when a declared
 * parameter holds something that is not a path.
 */
export function toolPaths(tool: ToolSpec, args: Record<string, unknown>, workspaceRoot: string, home: string = homedir()): { paths: string[]; unreadable: boolean } {
  const paths: string[] = [];
  let unreadable = false;
  const properties = tool.parameters['properties'] as Record<string, { default?: unknown } | undefined> | undefined;
  for (const name of tool.pathParams ?? []) {
    const value = name in args ? args[name] : properties?.[name]?.default;
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string' || v.trim() === '' || v.includes('\0')) unreadable = true;
      else if (v === '~' || v.startsWith('~/')) paths.push(resolve(home, v.slice(2)));
      else paths.push(resolve(workspaceRoot, v));
    }
  }
  return { paths, unreadable };
}

interface OpenQuestion {
  question: ApprovalQuestion;
  controller: AbortController;
  answer: Promise<ApprovalAnswer>;
  answered: boolean;
  /** Calls waiting on it: identical calls (same tool, same canonical arguments) share one question. */
  waiters: number;
  /** For a shell call: how its line was judged when asked (the protected paths an approval makes writable). */
  shell?: ShellJudgement;
}

/**
 * The tool policy: a mode per session, stored allow/deny rules, session grants and approvals.
 *
 * In order: a path in a denied root (the data folder) is refused in every mode; stored deny rules apply in
 * every mode; read-only tools run in every mode (a user plugin's only once confirmed); read mode refuses
 * the rest; a write to a protected path asks in write and yolo modes alike; yolo runs the rest; write mode
 * runs what an allow rule or grant covers and calls whose declared paths all lie inside the workspace, and
 * asks about anything else. Paths are judged where they land (symlinks followed) as well as as written.
 *
 * A question is per call: identical calls share one, others each get their own, and an answer covers only
 * the calls that asked it. A grant, rule, mode or trust change re-decides the calls still waiting: one that
 * is now decided is withdrawn from the window. With no approver attached, a question is a denial.
 */
export class PolicyService implements ToolGate {
  readonly #store: SettingsStore;
  readonly #defaultMode: PolicyMode;
  readonly #newId: () => string;
  readonly #deniedRoots: readonly string[];
  readonly #realPath: (path: string) => string;
  /** Shell tools are judged on their command line, with "always" kept per command prefix. */
  readonly #shell: ShellPolicy;
  readonly #sandbox: SandboxService;
  readonly #grants = new Map<string, Grant[]>();
  readonly #open = new Map<string, OpenQuestion>();
  /** Waiting calls to wake when a grant, rule, mode or trust changes. */
  readonly #wakers = new Set<() => void>();
  #approver: Approver | undefined;

  constructor(options: PolicyServiceOptions) {
    this.#store = options.store;
    this.#approver = options.approver;
    this.#defaultMode = options.defaultMode ?? 'write';
    this.#newId = options.newId ?? randomUUID;
    this.#realPath = options.realPath ?? realPath;
    this.#deniedRoots = (options.deniedRoots ?? []).map((r) => resolve(r));
    this.#shell = options.shell ?? new ShellPolicy();
    this.#sandbox = options.sandbox ?? new SandboxService({ store: options.store });
  }

  mode(sessionId: string): PolicyMode {
    const raw = this.#store.getSetting(modeKey(sessionId));
    if (raw === null) return this.#defaultMode;
    const parsed = PolicyMode.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : this.#defaultMode;
  }

  setMode(sessionId: string, mode: PolicyMode): void {
    this.#store.setSetting(modeKey(sessionId), JSON.stringify(PolicyMode.parse(mode)));
    this.#notifyChanged();
  }

  /** Stored rules. Unreadable rules throw: a lost deny rule must not turn into an allow. */
  rules(): PolicyRule[] {
    const raw = this.#store.getSetting(RULES_KEY);
    if (raw === null) return [];
    const parsed = PolicyRules.safeParse(safeJson(raw));
    if (!parsed.success) throw new AmberError('internal', 'The stored tool rules cannot be read; fix or clear them in the settings.');
    return parsed.data;
  }

  setRules(rules: PolicyRule[]): void {
    const parsed = PolicyRules.safeParse(rules);
    if (!parsed.success) throw new AmberError('invalid_input', `Refused the tool rules: ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
    const normalised = parsed.data.map((r) => (r.folder === undefined ? r : { ...r, folder: resolve(r.folder) }));
    this.#store.setSetting(RULES_KEY, JSON.stringify(normalised));
    this.#notifyChanged();
  }

  addRule(rule: PolicyRule): void {
    this.setRules([...this.rules(), rule]);
  }

  /** Whether the user confirmed that a user plugin's read-only tools only read. Stored per plugin. */
  readOnlyConfirmed(pluginId: string): boolean {
    return PLUGIN_ID.test(pluginId) && this.#store.getSetting(readOnlyKey(pluginId)) === 'true';
  }

  setReadOnlyConfirmed(pluginId: string, confirmed: boolean): void {
    if (!PLUGIN_ID.test(pluginId)) throw new AmberError('invalid_input', `There is no plugin id like '${pluginId}'; ids are lower-case letters, digits and _.`);
    this.#store.setSetting(readOnlyKey(pluginId), confirmed ? 'true' : null);
    this.#notifyChanged();
  }

  /** Has waiting calls decide again: a setting the policy reads changed outside it (the user's MCP trust). */
  reconsider(): void {
    this.#notifyChanged();
  }

  grants(sessionId: string): readonly Grant[] {
    return this.#grants.get(sessionId) ?? [];
  }

  clearGrants(sessionId: string): void {
    this.#grants.delete(sessionId);
    this.#shell.clear(sessionId);
  }

  /** Attaches the approver (the UI's dialog); disposing detaches it if it is still the one attached. */
  setApprover(approver: Approver): Disposable {
    this.#approver = approver;
    return toDisposable(() => {
      if (this.#approver === approver) this.#approver = undefined;
    });
  }

  decide(request: ToolRequest): PolicyDecision {
    const { tool, sessionId, workspaceRoot } = request;
    const found = toolPaths(tool, request.args, workspaceRoot);
    const paths = found.paths.map((written) => ({ written, lands: this.#realPath(written) }));
    const every = paths.flatMap((p) => [p.written, p.lands]);

    for (const root of this.#deniedRoots) {
      const realRoot = this.#realPath(root);
      const hit = every.find((p) => isInside(root, p) || isInside(realRoot, p));
      if (hit !== undefined) return { kind: 'deny', reason: `${tool.name} was not run: ${hit} is in Amber's data folder, which no tool may touch in any mode.` };
    }
    const rules = this.rules();
    const deny = rules.find((r) => r.effect === 'deny' && (r.tool === undefined || r.tool === tool.name) && (r.folder === undefined || this.#touches(r.folder, every)));
    if (deny) return { kind: 'deny', reason: `A stored rule denies ${describeRule(deny)}, so ${tool.name} was not run.` };
    if (isShellTool(tool, request.origin)) {
      // Before the probe has answered (decide called alone), a sandbox is assumed; authorize waits for it.
      const judged = this.#shell.decide(request, this.mode(sessionId), this.#sandbox.current()?.available ?? true);
      return judged.kind === 'ask' ? { ...judged, protectedPath: false } : judged;
    }
    if (this.#trustsReadOnly(request)) return { kind: 'allow' };
    const mode = this.mode(sessionId);
    if (mode === 'read') {
      const unconfirmed = tool.readOnly ? ` Its plugin says it only reads, but that is not confirmed in Settings.` : '';
      return { kind: 'deny', reason: `This session is in read mode, so ${tool.name}, which can change things, was not run.${unconfirmed} Only read-only tools run in read mode.` };
    }
    const guarded = every.map((p) => ({ path: p, why: protectedReason(p) })).find((p) => p.why !== null);
    if (guarded) {
      return {
        kind: 'ask',
        reason: `${tool.name} would change ${guarded.path}, a protected path: ${guarded.why}. Changes to protected paths are always asked about.`,
        folder: dirname(guarded.path),
        protectedPath: true,
      };
    }
    if (mode === 'yolo') return { kind: 'allow' };
    const allLand = (folder: string): boolean => paths.length > 0 && !found.unreadable && paths.every((p) => this.#lands(folder, p));
    if (rules.some((r) => r.effect === 'allow' && (r.tool === undefined || r.tool === tool.name) && (r.folder === undefined || allLand(r.folder)))) return { kind: 'allow' };
    if (this.grants(sessionId).some((g) => ('tool' in g ? g.tool === tool.name : allLand(g.folder)))) return { kind: 'allow' };
    if (tool.pathParams === undefined || tool.pathParams.length === 0) {
      return { kind: 'ask', reason: `${tool.name} can change things and declares no path parameters, so the policy cannot tell what it changes.`, folder: null, protectedPath: false };
    }
    if (found.unreadable) {
      return { kind: 'ask', reason: `${tool.name} can change things and one of its paths is not a path the policy can read.`, folder: null, protectedPath: false };
    }
    if (allLand(workspaceRoot)) return { kind: 'allow' };
    const outside = paths.find((p) => !this.#lands(workspaceRoot, p));
    if (outside === undefined) {
      return { kind: 'ask', reason: `${tool.name} can change things and names no path inside the workspace.`, folder: null, protectedPath: false };
    }
    const where = outside.lands === outside.written ? outside.written : `${outside.written} (which leads to ${outside.lands})`;
    return { kind: 'ask', reason: `${tool.name} would change ${where}, which is outside the workspace ${workspaceRoot}.`, folder: dirname(outside.lands), protectedPath: false };
  }

  async authorize(request: ToolRequest, signal: AbortSignal): Promise<GateDecision> {
    if (isShellTool(request.tool, request.origin)) await Promise.all([this.#shell.ready(), this.#sandbox.status()]);
    const decision = this.#safeDecide(request);
    if (decision.kind === 'allow') return this.#allowed(request);
    if (decision.kind === 'deny') return { allowed: false, reason: decision.reason };
    const approver = this.#approver;
    if (!approver) return { allowed: false, reason: `${decision.reason} No one is there to approve it, so it was not run.` };
    const stopped: GateDecision = { allowed: false, reason: `The run was stopped while ${request.tool.name} waited for approval, so it was not run.` };
    if (signal.aborted) return stopped;

    const key = `${request.sessionId}\0${callSignature({ name: request.tool.name, arguments: request.args })}`;
    let open = this.#open.get(key);
    if (!open) open = this.#openQuestion(key, request, decision, approver);
    open.waiters++;
    let withdrawAs: 'once' | 'deny' = 'deny';
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<{ kind: 'aborted' }>((res) => {
      onAbort = () => res({ kind: 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const answered = open.answer.then((answer) => ({ kind: 'answer' as const, answer }));
    let waker: (() => void) | undefined;
    try {
      for (;;) {
        const changed = new Promise<{ kind: 'changed' }>((res) => {
          waker = () => res({ kind: 'changed' });
          this.#wakers.add(waker);
        });
        const next = await Promise.race([answered, changed, aborted]);
        if (waker) this.#wakers.delete(waker);
        if (next.kind === 'aborted') return stopped;
        if (next.kind === 'answer') return this.#apply(request, open, next.answer);
        const again = this.#safeDecide(request);
        if (again.kind === 'allow') {
          withdrawAs = 'once';
          return this.#allowed(request);
        }
        if (again.kind === 'deny') return { allowed: false, reason: again.reason };
      }
    } finally {
      if (waker) this.#wakers.delete(waker);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      open.waiters--;
      if (open.waiters === 0 && !open.answered) {
        if (this.#open.get(key) === open) this.#open.delete(key);
        open.controller.abort(new QuestionWithdrawn(withdrawAs));
      }
    }
  }

  #openQuestion(key: string, request: ToolRequest, decision: Extract<PolicyDecision, { kind: 'ask' }>, approver: Approver): OpenQuestion {
    const question: ApprovalQuestion = {
      id: this.#newId(),
      sessionId: request.sessionId,
      toolName: request.tool.name,
      toolCallId: request.toolCallId,
      args: request.args,
      folder: decision.folder,
      reason: decision.reason,
      ...(decision.protectedPath ? { protectedPath: true } : {}),
      ...(decision.shell ? { command: decision.shell.command, sandboxed: decision.shell.sandboxed } : {}),
    };
    const controller = new AbortController();
    const open: OpenQuestion = { question, controller, answer: ask(approver, question, controller.signal), answered: false, waiters: 0, ...(decision.shell ? { shell: decision.shell } : {}) };
    // Registered first, so it runs before any waiter sees the answer: a call that comes later asks anew.
    void open.answer.then(() => {
      open.answered = true;
      if (this.#open.get(key) === open) this.#open.delete(key);
    });
    this.#open.set(key, open);
    return open;
  }

  #apply(request: ToolRequest, open: OpenQuestion, answer: ApprovalAnswer): GateDecision {
    const { question } = open;
    // Protected paths the user was asked about stay writable in the sandbox for this call alone.
    const writable = open.shell?.protectedPaths ?? [];
    switch (answer) {
      case 'once':
        return this.#allowed(request, { writable });
      case 'unsandboxed':
        // Offered only where the call would run in a sandbox; never remembered. Anywhere else it is a denial.
        if (!isShellTool(request.tool, request.origin) || question.sandboxed !== true) {
          return { allowed: false, reason: `${request.tool.name} was not run: running outside the sandbox can only be chosen for a shell command that would run in one.` };
        }
        return this.#allowed(request, { unsandboxed: true });
      case 'always_tool': {
        // A shell tool is never allowed as a whole: "always" keeps the command's prefixes (`npm test`).
        const judged = isShellTool(request.tool, request.origin) ? this.#safeDecide(request) : null;
        if (judged?.kind === 'ask' && judged.shell) {
          this.#shell.allow(request.sessionId, judged.shell);
          this.#notifyChanged();
        } else if (!isShellTool(request.tool, request.origin)) {
          this.#grant(request.sessionId, { tool: request.tool.name });
        }
        return this.#allowed(request, { writable });
      }
      case 'always_folder':
        if (question.folder !== null) this.#grant(request.sessionId, { folder: question.folder });
        return this.#allowed(request, { writable });
      case 'deny':
        return { allowed: false, reason: `The user declined to run ${request.tool.name}.` };
    }
  }

  /** An allowed call; a shell tool's carries the sandbox it must run in, built from the mode at this moment. */
  #allowed(request: ToolRequest, call: { unsandboxed?: boolean; writable?: readonly string[] } = {}): GateDecision {
    if (!isShellTool(request.tool, request.origin)) return { allowed: true };
    return { allowed: true, sandbox: this.#sandbox.profile(request.sessionId, this.mode(request.sessionId), call) };
  }

  sandboxUnavailable(detail: string): void {
    this.#sandbox.markUnavailable(detail);
    this.#notifyChanged();
  }

  #safeDecide(request: ToolRequest): PolicyDecision {
    try {
      return this.decide(request);
    } catch (e) {
      return { kind: 'deny', reason: `The tool policy could not decide, so ${request.tool.name} was not run: ${errorMessage(e)}` };
    }
  }

  #trustsReadOnly(request: ToolRequest): boolean {
    const mcp = mcpReadOnlyTrust(request, (key) => this.#store.getSetting(key));
    if (mcp !== undefined) return mcp;
    if (!request.tool.readOnly) return false;
    const origin = request.origin;
    return origin === undefined || origin.bundled || this.readOnlyConfirmed(origin.pluginId);
  }

  /** Some path lies inside `folder`, as written or where it lands: what a deny needs. */
  #touches(folder: string, every: readonly string[]): boolean {
    const real = this.#realPath(folder);
    return every.some((p) => isInside(folder, p) || isInside(real, p));
  }

  /** The path lies inside `folder` as written and lands inside it: what an allow needs. */
  #lands(folder: string, path: { written: string; lands: string }): boolean {
    return isInside(folder, path.written) && (isInside(folder, path.lands) || isInside(this.#realPath(folder), path.lands));
  }

  #grant(sessionId: string, grant: Grant): void {
    const list = this.#grants.get(sessionId) ?? [];
    if (!list.some((g) => JSON.stringify(g) === JSON.stringify(grant))) list.push(grant);
    this.#grants.set(sessionId, list);
    this.#notifyChanged();
  }

  /** Wakes every waiting call to decide again. */
  #notifyChanged(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}

/** Never rejects: an approver that fails, answers nonsense or is cut off by the signal means "deny". */
async function ask(approver: Approver, question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalAnswer> {
  if (signal.aborted) return 'deny';
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ApprovalAnswer>((res) => {
    onAbort = () => res('deny');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const answered = Promise.resolve()
      .then(() => approver(question, signal))
      .then((a) => ApprovalAnswer.catch('deny').parse(a))
      .catch((): ApprovalAnswer => 'deny');
    return await Promise.race([answered, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function describeRule(rule: PolicyRule): string {
  if (rule.tool !== undefined && rule.folder !== undefined) return `${rule.tool} in ${rule.folder}`;
  return rule.tool ?? `tools in ${rule.folder}`;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
