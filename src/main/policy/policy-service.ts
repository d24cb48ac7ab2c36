import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { ApprovalAnswer, PolicyMode, PolicyRules, type ApprovalQuestion, type PolicyRule } from '../../shared/agent/index.ts';
import { toDisposable, type Disposable } from '../../shared/disposable.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import { isInside } from './path-confinement.ts';
import { isShellTool, ShellPolicy, type ShellJudgement } from './shell-policy.ts';

/** The two settings calls the policy needs (SessionStore has them). */
export interface SettingsStore {
  getSetting(key: string): string | null;
  setSetting(key: string, value: string | null): void;
}

/** Asks a person. Resolves with their answer; rejecting or being absent counts as a denial. */
export type Approver = (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalAnswer>;

export interface ToolRequest {
  sessionId: string;
  /** Absolute path of the session's workspace. */
  workspaceRoot: string;
  tool: ToolSpec;
  toolCallId: string;
  args: Record<string, unknown>;
}

export type GateDecision = { allowed: true } | { allowed: false; reason: string };

/** What tool dispatch asks before running a call. Must not throw for a plain refusal: return the reason. */
export interface ToolGate {
  authorize(request: ToolRequest, signal: AbortSignal): Promise<GateDecision>;
}

export type PolicyDecision = { kind: 'allow' } | { kind: 'deny'; reason: string } | { kind: 'ask'; reason: string; folder: string | null; shell?: ShellJudgement };

/** A session grant recorded from an "always" answer; lives as long as this process. */
export type Grant = { tool: string } | { folder: string };

export interface PolicyServiceOptions {
  store: SettingsStore;
  approver?: Approver;
  /** Mode of a session that has none stored. */
  defaultMode?: PolicyMode;
  newId?: () => string;
  shell?: ShellPolicy;
}

const RULES_KEY = 'policy.rules';
const modeKey = (sessionId: string): string => `policy.mode.${sessionId}`;

/** Argument names whose string values a tool uses as paths (a heuristic: tools do not declare paths). */
const PATH_KEYS = new Set(['path', 'paths', 'file', 'files', 'file_path', 'filePath', 'filename', 'dir', 'directory', 'cwd', 'target', 'destination', 'source']);

/** The paths a call names, resolved lexically against the workspace root. */
export function toolPaths(args: Record<string, unknown>, workspaceRoot: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!PATH_KEYS.has(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (typeof v === 'string' && v.trim() !== '') out.push(resolve(workspaceRoot, v));
  }
  return out;
}

/**
 * The tool policy: a mode per session, stored allow/deny rules, session grants and approvals. Deny rules
 * apply in every mode; read-only tools run in every mode; read mode refuses the rest; yolo runs the
 * rest; write mode runs calls whose paths all lie inside the workspace (or that a rule or grant allows)
 * and asks about anything else. With no approver attached, a question is a denial (fail-safe).
 */
export class PolicyService implements ToolGate {
  readonly #store: SettingsStore;
  readonly #defaultMode: PolicyMode;
  readonly #newId: () => string;
  readonly #grants = new Map<string, Grant[]>();
  /** One open question per scope (session, tool, folder); calls of the same scope share its answer. */
  readonly #pending = new Map<string, Promise<ApprovalAnswer>>();
  #approver: Approver | undefined;
  /** Shell tools are judged on their command line, with "always" kept per command prefix. */
  readonly #shell: ShellPolicy;

  constructor(options: PolicyServiceOptions) {
    this.#store = options.store;
    this.#approver = options.approver;
    this.#defaultMode = options.defaultMode ?? 'write';
    this.#newId = options.newId ?? randomUUID;
    this.#shell = options.shell ?? new ShellPolicy();
  }

  mode(sessionId: string): PolicyMode {
    const raw = this.#store.getSetting(modeKey(sessionId));
    if (raw === null) return this.#defaultMode;
    const parsed = PolicyMode.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : this.#defaultMode;
  }

  setMode(sessionId: string, mode: PolicyMode): void {
    this.#store.setSetting(modeKey(sessionId), JSON.stringify(PolicyMode.parse(mode)));
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
  }

  addRule(rule: PolicyRule): void {
    this.setRules([...this.rules(), rule]);
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
    const paths = toolPaths(request.args, workspaceRoot);
    const rules = this.rules();
    const deny = rules.find((r) => r.effect === 'deny' && ruleMatches(r, tool.name, paths, 'any'));
    if (deny) return { kind: 'deny', reason: `A stored rule denies ${describeRule(deny)}, so ${tool.name} was not run.` };
    if (isShellTool(tool)) return this.#shell.decide(request, this.mode(sessionId));
    if (tool.readOnly) return { kind: 'allow' };
    const mode = this.mode(sessionId);
    if (mode === 'read') {
      return { kind: 'deny', reason: `This session is in read mode, so ${tool.name}, which can change things, was not run. Only read-only tools run in read mode.` };
    }
    if (mode === 'yolo') return { kind: 'allow' };
    if (rules.some((r) => r.effect === 'allow' && ruleMatches(r, tool.name, paths, 'all'))) return { kind: 'allow' };
    if (this.grants(sessionId).some((g) => grantMatches(g, tool.name, paths))) return { kind: 'allow' };
    if (paths.length > 0 && paths.every((p) => isInside(workspaceRoot, p))) return { kind: 'allow' };
    const outside = paths.find((p) => !isInside(workspaceRoot, p));
    const folder = paths.length > 0 ? dirname(outside ?? paths[0]!) : null;
    const reason =
      outside !== undefined
        ? `${tool.name} would change ${outside}, which is outside the workspace ${workspaceRoot}.`
        : `${tool.name} can change things and names no path inside the workspace.`;
    return { kind: 'ask', reason, folder };
  }

  async authorize(request: ToolRequest, signal: AbortSignal): Promise<GateDecision> {
    let decision: PolicyDecision;
    if (isShellTool(request.tool)) await this.#shell.ready();
    try {
      decision = this.decide(request);
    } catch (e) {
      return { allowed: false, reason: `The tool policy could not decide, so ${request.tool.name} was not run: ${errorMessage(e)}` };
    }
    if (decision.kind === 'allow') return { allowed: true };
    if (decision.kind === 'deny') return { allowed: false, reason: decision.reason };
    const approver = this.#approver;
    if (!approver) {
      return { allowed: false, reason: `${decision.reason} No one is there to approve it, so it was not run.` };
    }
    const scope = `${request.sessionId}\0${request.tool.name}\0${decision.folder ?? ''}\0${decision.shell?.command.line ?? ''}`;
    let pending = this.#pending.get(scope);
    if (!pending) {
      const question: ApprovalQuestion = {
        id: this.#newId(),
        sessionId: request.sessionId,
        toolName: request.tool.name,
        toolCallId: request.toolCallId,
        args: request.args,
        folder: decision.folder,
        reason: decision.reason,
        ...(decision.shell ? { command: decision.shell.command } : {}),
      };
      pending = ask(approver, question, signal);
      this.#pending.set(scope, pending);
      const settled = pending;
      void settled.finally(() => {
        if (this.#pending.get(scope) === settled) this.#pending.delete(scope);
      });
    }
    const answer = await pending;
    switch (answer) {
      case 'once':
        return { allowed: true };
      case 'always_tool':
        if (decision.shell) this.#shell.allow(request.sessionId, decision.shell);
        else this.#grant(request.sessionId, { tool: request.tool.name });
        return { allowed: true };
      case 'always_folder':
        if (decision.folder !== null) this.#grant(request.sessionId, { folder: decision.folder });
        return { allowed: true };
      case 'deny':
        return { allowed: false, reason: `The user declined to run ${request.tool.name}.` };
    }
  }

  #grant(sessionId: string, grant: Grant): void {
    const list = this.#grants.get(sessionId) ?? [];
    if (!list.some((g) => JSON.stringify(g) === JSON.stringify(grant))) list.push(grant);
    this.#grants.set(sessionId, list);
  }
}

/** Never rejects: an approver that fails, answers nonsense or is cut off by an abort means "deny". */
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

function ruleMatches(rule: PolicyRule, toolName: string, paths: string[], quantifier: 'any' | 'all'): boolean {
  if (rule.tool !== undefined && rule.tool !== toolName) return false;
  if (rule.folder === undefined) return true;
  if (paths.length === 0) return false;
  const folder = rule.folder;
  return quantifier === 'any' ? paths.some((p) => isInside(folder, p)) : paths.every((p) => isInside(folder, p));
}

function grantMatches(grant: Grant, toolName: string, paths: string[]): boolean {
  if ('tool' in grant) return grant.tool === toolName;
  return paths.length > 0 && paths.every((p) => isInside(grant.folder, p));
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
