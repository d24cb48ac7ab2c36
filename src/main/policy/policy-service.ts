import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import {
  ApprovalAnswer,
  ApprovalReply,
  ApprovalTimeoutSeconds,
  PolicyMode,
  type ApprovalFile,
  type ApprovalQuestion,
  type ApprovalScope,
  type PolicyRule,
  type StoredPolicyRule,
} from '../../shared/agent/index.ts';
import { toDisposable, type Disposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { callSignature, protectedReason } from '../../shared/tools/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { SettingsService } from '../settings/index.ts';
import { mcpReadOnlyTrust } from './mcp-trust.ts';
import { isInside } from '../is-inside.ts';
import { PolicyRuleBook, ruleHoldsIn, shellGrants } from './policy-rule-book.ts';
import { fileFacts } from './file-facts.ts';
import { realPath } from './real-path.ts';
import { toolPaths } from './tool-paths.ts';
import { SandboxService } from './sandbox-service.ts';
import { isShellTool, ShellPolicy, type ShellJudgement } from './shell-policy.ts';
import type { UnattendedApprovals } from './unattended-approvals.ts';

import { QuestionWithdrawn, type Approver, type GateDecision, type PolicyDecision, type ToolGate, type ToolRequest } from './tool-gate.ts';

export interface PolicyServiceOptions {
  /** Where the modes, rules, time limit and read-only confirmations are kept. */
  settings: SettingsService;
  approver?: Approver;
  /** Mode of a session that has none stored. */
  defaultMode?: PolicyMode;
  newId?: () => string;
  /** Folders no tool may name in any mode, read-only tools included (Amber's data folder). */
  deniedRoots?: readonly string[];
  /** Where a write to a path lands, symlinks followed. Default: the file system's answer. */
  realPath?: (path: string) => string;
  /** What an approval question says of a file a call names (exists, size, where an edit lands). Default: the file system's answer. */
  fileFacts?: (path: string, args: unknown) => ApprovalFile;
  /** How shell tools are judged (on their command line). Default: tree-sitter's bash grammar. */
  shell?: ShellPolicy;
  /** Whether a sandbox can start, and the network setting each shell call's sandbox follows. Default: probed here. */
  sandbox?: SandboxService;
  /**
   * A run with no one to ask (a scripted run): no question is put to anyone; a call these allowances cover
   * runs, any other that would ask is denied at once. Used only when no approver is attached.
   */
  unattended?: UnattendedApprovals;
  /** When rules are stored (their source's `at`). Default: Date.now. */
  clock?: () => number;
  /** Starts the timer of a question's time limit; returns how to cancel it. Default: setTimeout. */
  timer?: (ms: number, fire: () => void) => () => void;
}

const PLUGIN_ID = /^[a-z0-9_]{1,64}$/;

interface OpenQuestion {
  question: ApprovalQuestion;
  controller: AbortController;
  answer: Promise<ApprovalReply>;
  answered: boolean;
  /** Set when the time limit withdrew it: the seconds it waited. */
  timedOutAfter?: number;
  /** Calls waiting on it: identical calls (same tool, same canonical arguments) share one question. */
  waiters: number;
  /** For a shell call: how its line was judged when asked (the protected paths an approval makes writable). */
  shell?: ShellJudgement;
}

/**
 * The tool policy: a mode per session, stored allow/deny rules (an "always" answer stores one) and approvals.
 *
 * In order: a path in a denied root (the data folder) is refused in every mode; stored deny rules apply in
 * every mode; read-only tools run in every mode (a user plugin's only once confirmed); read mode refuses
 * the rest; a write to a protected path asks in write and yolo modes alike; yolo runs the rest; write mode
 * runs what an allow rule covers and calls whose declared paths all lie inside the workspace, and asks
 * about anything else. Paths are judged where they land (symlinks followed) as well as as written. A rule
 * scoped to a workspace folder holds only in the conversations working there.
 *
 * A question is per call: identical calls share one, others each get their own, and an answer covers only
 * the calls that asked it. A rule, mode or trust change re-decides the calls still waiting: one that is now
 * decided is withdrawn from the window. A question unanswered past the approval timeout (when one is set)
 * is denied as timed out. With no approver attached (a run with no one to ask), a question is a denial at
 * once, unless the run's unattended allowances cover the call.
 */
export class PolicyService implements ToolGate {
  readonly #settings: SettingsService;
  readonly #defaultMode: PolicyMode;
  readonly #newId: () => string;
  readonly #deniedRoots: readonly string[];
  readonly #realPath: (path: string) => string;
  readonly #fileFacts: (path: string, args: unknown) => ApprovalFile;
  /** Shell tools are judged on their command line, with "always" kept per command prefix. */
  readonly #shell: ShellPolicy;
  readonly #sandbox: SandboxService;
  readonly #rules: PolicyRuleBook;
  readonly #clock: () => number;
  readonly #timer: (ms: number, fire: () => void) => () => void;
  readonly #onDidChange = new Emitter<{ sessionId: string | null }>();
  /** The run's allowances when no one can be asked (see PolicyServiceOptions.unattended). */
  readonly unattended: UnattendedApprovals | null;
  readonly #open = new Map<string, OpenQuestion>();
  /** Waiting calls to wake when a grant, rule, mode or trust changes. */
  readonly #wakers = new Set<() => void>();
  /** Conversations run with no one to ask (scheduled runs): their allowances, and whether unlisted tools are refused outright. */
  readonly #unattendedRuns = new Map<string, { approvals: UnattendedApprovals; onlyListed: boolean }>();
  #approver: Approver | undefined;

  constructor(options: PolicyServiceOptions) {
    this.#settings = options.settings;
    this.#approver = options.approver;
    this.#defaultMode = options.defaultMode ?? 'write';
    this.#newId = options.newId ?? randomUUID;
    this.#realPath = options.realPath ?? realPath;
    this.#fileFacts = options.fileFacts ?? fileFacts;
    this.#deniedRoots = (options.deniedRoots ?? []).map((r) => resolve(r));
    this.#shell = options.shell ?? new ShellPolicy();
    this.#sandbox = options.sandbox ?? new SandboxService({ settings: options.settings });
    this.#rules = new PolicyRuleBook(options.settings);
    this.#clock = options.clock ?? Date.now;
    this.#timer =
      options.timer ??
      ((ms, fire) => {
        const t = setTimeout(fire, ms);
        return () => clearTimeout(t);
      });
    this.unattended = options.unattended ?? null;
  }

  /**
   * What holds changed: a conversation's mode (its id), or (null) the stored rules, the approval timeout or
   * a read-only confirmation. Fired by every change, an "always" answer's new rule included.
   */
  readonly onDidChange: Event<{ sessionId: string | null }> = this.#onDidChange.event;

  mode(sessionId: string): PolicyMode {
    return this.#settings.find('policy.mode', sessionId) ?? this.#defaultMode;
  }

  setMode(sessionId: string, mode: PolicyMode): void {
    this.#settings.set('policy.mode', sessionId, mode);
    this.#changed(sessionId);
  }

  /** Stored rules, oldest first. Unreadable rules throw: a lost deny rule must not turn into an allow. */
  rules(): StoredPolicyRule[] {
    return this.#rules.list();
  }

  /** Replaces every stored rule (nothing is stored unless all are valid). */
  setRules(rules: readonly PolicyRule[]): void {
    this.#rules.replace(rules);
    this.#changed(null);
  }

  /** Stores a rule (one without a source came from Settings, now); an identical one already stored stays. */
  addRule(rule: PolicyRule): StoredPolicyRule {
    const added = this.#rules.add(rule.source ? rule : { ...rule, source: { via: 'settings', at: this.#clock() } });
    if (added.changed) this.#changed(null);
    return added.rule;
  }

  /** Removes the stored rule with this id; `not_found` when there is none. */
  removeRule(id: string): void {
    this.#rules.remove(id);
    this.#changed(null);
  }

  /** Seconds a question waits before it is denied as timed out; null: it waits until answered. */
  approvalTimeout(): number | null {
    return this.#settings.get('policy.approvalTimeoutSeconds');
  }

  setApprovalTimeout(seconds: number | null): void {
    const parsed = ApprovalTimeoutSeconds.nullable().safeParse(seconds);
    if (!parsed.success) throw new AmberError('invalid_input', 'A question waits 1 to 86,400 seconds (a day), in whole seconds, or without a limit.');
    this.#settings.set('policy.approvalTimeoutSeconds', parsed.data);
    this.#changed(null);
  }

  /** Whether the user confirmed that a user plugin's read-only tools only read. Stored per plugin. */
  readOnlyConfirmed(pluginId: string): boolean {
    return PLUGIN_ID.test(pluginId) && this.#settings.get('policy.readOnlyConfirmed', pluginId);
  }

  setReadOnlyConfirmed(pluginId: string, confirmed: boolean): void {
    if (!PLUGIN_ID.test(pluginId)) throw new AmberError('invalid_input', `There is no plugin id like '${pluginId}'; ids are lower-case letters, digits and _.`);
    if (confirmed) this.#settings.set('policy.readOnlyConfirmed', pluginId, true);
    else this.#settings.clear('policy.readOnlyConfirmed', pluginId);
    this.#changed(null);
  }

  /** Has waiting calls decide again: a setting the policy reads changed outside it (the user's MCP trust). */
  reconsider(): void {
    this.#notifyChanged();
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
      if (hit !== undefined)
        return { kind: 'deny', reason: `${tool.name} was not run: ${hit} is in Amber's data folder, which no tool may touch in any mode.` };
    }
    const rules = this.rules().filter((r) => ruleHoldsIn(r, workspaceRoot));
    const deny = rules.find(
      (r) => r.effect === 'deny' && (r.tool === undefined || r.tool === tool.name) && (r.folder === undefined || this.#touches(r.folder, every)),
    );
    if (deny) return { kind: 'deny', reason: `A stored rule denies ${describeRule(deny)}, so ${tool.name} was not run.` };
    if (isShellTool(tool, request.origin)) {
      // Before the probe has answered (decide called alone), a sandbox is assumed; authorize waits for it.
      const places = { deniedRoots: this.#deniedRoots, realPath: this.#realPath };
      const judged = this.#shell.decide(
        request,
        this.mode(sessionId),
        this.#sandbox.current()?.available ?? true,
        shellGrants(rules, tool.name, workspaceRoot),
        places,
      );
      return judged.kind === 'ask' ? { ...judged, protectedPath: judged.shell.protectedPaths.length > 0 } : judged;
    }
    if (this.#trustsReadOnly(request)) return { kind: 'allow' };
    const mode = this.mode(sessionId);
    if (mode === 'read') {
      const unconfirmed = tool.readOnly ? ` Its plugin says it only reads, but that is not confirmed in Settings.` : '';
      return {
        kind: 'deny',
        reason: `This conversation is in read mode, so ${tool.name}, which can change things, was not run.${unconfirmed} Only read-only tools run in read mode.`,
      };
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
    const allows = (r: PolicyRule): boolean =>
      r.effect === 'allow' && r.command === undefined && (r.tool === undefined || r.tool === tool.name) && (r.folder === undefined || allLand(r.folder));
    if (rules.some(allows)) return { kind: 'allow' };
    if (tool.pathParams === undefined || tool.pathParams.length === 0) {
      return {
        kind: 'ask',
        reason: `${tool.name} can change things and declares no path parameters, so the policy cannot tell what it changes.`,
        folder: null,
        protectedPath: false,
      };
    }
    if (found.unreadable) {
      return {
        kind: 'ask',
        reason: `${tool.name} can change things and one of its paths is not a path the policy can read.`,
        folder: null,
        protectedPath: false,
      };
    }
    if (allLand(workspaceRoot)) return { kind: 'allow' };
    const outside = paths.find((p) => !this.#lands(workspaceRoot, p));
    if (outside === undefined) {
      return { kind: 'ask', reason: `${tool.name} can change things and names no path inside the workspace.`, folder: null, protectedPath: false };
    }
    const where = outside.lands === outside.written ? outside.written : `${outside.written} (which leads to ${outside.lands})`;
    return {
      kind: 'ask',
      reason: `${tool.name} would change ${where}, which is outside the workspace ${workspaceRoot}.`,
      folder: dirname(outside.lands),
      protectedPath: false,
    };
  }

  /**
   * Runs one conversation with no one to ask, whatever window is open (a scheduled task's run): a call that
   * would ask is decided by these allowances at once, as a whole unattended core's are; with `onlyListed`, a
   * tool the allowances do not name is refused before anything else. Disposing ends it.
   */
  runUnattended(sessionId: string, approvals: UnattendedApprovals, options: { onlyListed?: boolean } = {}): Disposable {
    const run = { approvals, onlyListed: options.onlyListed ?? false };
    this.#unattendedRuns.set(sessionId, run);
    return toDisposable(() => {
      if (this.#unattendedRuns.get(sessionId) === run) this.#unattendedRuns.delete(sessionId);
    });
  }

  /**
   * Whether anyone can be asked about this conversation (or, without one, about anything): false in a core with
   * no one to ask (`amber run`, an eval) and in a run with no one to ask (a scheduled task's). A plugin's form is
   * declined at once where this is false, as a question of the policy is decided without asking.
   */
  canAsk(sessionId?: string): boolean {
    return this.#approver !== undefined && (sessionId === undefined || !this.#unattendedRuns.has(sessionId));
  }

  async authorize(request: ToolRequest, signal: AbortSignal): Promise<GateDecision> {
    const run = this.#unattendedRuns.get(request.sessionId);
    if (run?.onlyListed && !run.approvals.entries().some((e) => e.tool === request.tool.name))
      return { allowed: false, reason: `${request.tool.name} is not among the tools this run may use, so it was not run.` };
    if (isShellTool(request.tool, request.origin)) await Promise.all([this.#shell.ready(), this.#sandbox.status()]);
    const decision = this.#safeDecide(request);
    if (decision.kind === 'allow') return this.#allowed(request);
    if (decision.kind === 'deny') return { allowed: false, reason: decision.reason };
    if (run) return this.#unattended(request, decision, run.approvals);
    const approver = this.#approver;
    if (!approver) return this.#unattended(request, decision);
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
        if (next.kind === 'answer') {
          if (open.timedOutAfter !== undefined) {
            return {
              allowed: false,
              reason: `No one answered within ${open.timedOutAfter.toLocaleString('en')} s, so the question timed out and ${request.tool.name} was not run.`,
            };
          }
          return this.#apply(request, open, next.answer);
        }
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
    // A file tool's files as they are now, so the question can show what the call changes ("before").
    const files = decision.shell
      ? []
      : toolPaths(request.tool, request.args, request.workspaceRoot)
          .paths.slice(0, 16)
          .map((p) => this.#fileFacts(p, request.args));
    const question: ApprovalQuestion = {
      id: this.#newId(),
      sessionId: request.sessionId,
      toolName: request.tool.name,
      toolCallId: request.toolCallId,
      args: request.args,
      folder: decision.folder,
      reason: decision.reason,
      workspaceRoot: request.workspaceRoot,
      ...(decision.protectedPath ? { protectedPath: true } : {}),
      ...(decision.shell ? { command: decision.shell.command, sandboxed: decision.shell.sandboxed } : {}),
      ...(request.label !== undefined ? { label: request.label } : {}),
      ...(files.length > 0 ? { files } : {}),
    };
    const controller = new AbortController();
    const open: OpenQuestion = {
      question,
      controller,
      answer: ask(approver, question, controller.signal),
      answered: false,
      waiters: 0,
      ...(decision.shell ? { shell: decision.shell } : {}),
    };
    // A question left unanswered past the time limit is withdrawn as a denial (the window stops asking it).
    const seconds = this.approvalTimeout();
    const cancelTimer =
      seconds === null
        ? () => {}
        : this.#timer(seconds * 1000, () => {
            if (open.answered) return;
            open.timedOutAfter = seconds;
            controller.abort(new QuestionWithdrawn('deny'));
          });
    // Registered first, so it runs before any waiter sees the answer: a call that comes later asks anew.
    void open.answer.then(() => {
      open.answered = true;
      cancelTimer();
      if (this.#open.get(key) === open) this.#open.delete(key);
    });
    this.#open.set(key, open);
    return open;
  }

  #apply(request: ToolRequest, open: OpenQuestion, { answer, scope }: ApprovalReply): GateDecision {
    const { question } = open;
    // Protected paths the user was asked about stay writable in the sandbox for this call alone. A line asked
    // about as one that runs in the sandbox is never run outside it on that answer, even if the sandbox has
    // failed since: it then fails to start and says so.
    const approved = { writable: open.shell?.protectedPaths ?? [], ...(question.sandboxed === true ? { sandboxOnly: true } : {}) };
    switch (answer) {
      case 'once':
        return this.#allowed(request, approved);
      case 'unsandboxed':
        // Offered only where the call would run in a sandbox; never remembered. Anywhere else it is a denial.
        if (!isShellTool(request.tool, request.origin) || question.sandboxed !== true) {
          return {
            allowed: false,
            reason: `${request.tool.name} was not run: running outside the sandbox can only be chosen for a shell command that would run in one.`,
          };
        }
        return this.#allowed(request, { unsandboxed: true });
      case 'always_tool': {
        // A shell tool is never allowed as a whole: "always" keeps the command's prefixes (`npm test`).
        if (isShellTool(request.tool, request.origin)) {
          const kept = open.shell ? this.#shell.grantable(open.shell) : null;
          for (const prefix of kept?.prefixes ?? []) this.#remember(request, scope, { tool: request.tool.name, command: prefix, class: kept!.class });
        } else {
          this.#remember(request, scope, { tool: request.tool.name });
        }
        return this.#allowed(request, approved);
      }
      case 'always_folder':
        // A shell line's question names a folder only to say where it reaches: its "always" is kept by command prefix.
        if (question.folder !== null && !isShellTool(request.tool, request.origin)) this.#remember(request, scope, { folder: question.folder });
        return this.#allowed(request, approved);
      case 'deny':
        return { allowed: false, reason: `The user declined to run ${request.tool.name}.` };
    }
  }

  /** An allowed call; a shell tool's carries the sandbox it must run in, built from the mode at this moment. */
  #allowed(request: ToolRequest, call: { unsandboxed?: boolean; writable?: readonly string[]; sandboxOnly?: boolean } = {}): GateDecision {
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
    const mcp = mcpReadOnlyTrust(request, () => this.#settings.get('mcp.trust'));
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

  /**
   * Stores what an "always" answer allows, in the conversation's workspace folder or (`global`) everywhere.
   * A rule that cannot be stored (too many rules) leaves the answer an "allow once": the call still runs.
   */
  #remember(request: ToolRequest, scope: ApprovalScope | undefined, what: Pick<PolicyRule, 'tool' | 'folder' | 'command' | 'class'>): void {
    try {
      this.addRule({
        effect: 'allow',
        ...what,
        ...(scope === 'global' ? {} : { workspace: request.workspaceRoot }),
        source: { via: 'approval', at: this.#clock(), sessionId: request.sessionId },
      });
    } catch {
      // The rule is not kept; the call the user approved runs all the same.
    }
  }

  /** A question with no one to ask: the run's allowances decide it at once, else it is denied. */
  #unattended(request: ToolRequest, decision: Extract<PolicyDecision, { kind: 'ask' }>, approvals = this.unattended): GateDecision {
    const verdict = decision.shell?.verdict;
    const allowed = approvals?.decide({
      toolName: request.tool.name,
      shell: isShellTool(request.tool, request.origin),
      protectedPath: decision.protectedPath || (decision.shell?.protectedPaths.length ?? 0) > 0,
      ...(verdict && decision.shell
        ? { command: { line: decision.shell.command.line, class: verdict.class, outside: verdict.outside, prefixes: verdict.prefixes } }
        : {}),
    });
    if (allowed) return this.#allowed(request);
    return { allowed: false, reason: `${decision.reason} No one is there to approve it, so it was not run.` };
  }

  /** The owner's change: announced, and every waiting call decides again. */
  #changed(sessionId: string | null): void {
    this.#onDidChange.fire({ sessionId });
    this.#notifyChanged();
  }

  /** Wakes every waiting call to decide again. */
  #notifyChanged(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}

const DENIED: ApprovalReply = { answer: 'deny' };
const Reply = z.union([ApprovalAnswer.transform((answer): ApprovalReply => ({ answer })), ApprovalReply]).catch(DENIED);

/** Never rejects: an approver that fails, answers nonsense or is cut off by the signal means "deny". */
async function ask(approver: Approver, question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalReply> {
  if (signal.aborted) return DENIED;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ApprovalReply>((res) => {
    onAbort = () => res(DENIED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const answered = Promise.resolve()
      .then(() => approver(question, signal))
      .then((a) => Reply.parse(a))
      .catch((): ApprovalReply => DENIED);
    return await Promise.race([answered, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function describeRule(rule: PolicyRule): string {
  const what = rule.tool !== undefined && rule.folder !== undefined ? `${rule.tool} in ${rule.folder}` : (rule.tool ?? `tools in ${rule.folder}`);
  return rule.workspace !== undefined ? `${what} (in the workspace ${rule.workspace})` : what;
}
