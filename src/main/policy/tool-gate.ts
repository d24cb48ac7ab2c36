import type { ApprovalAnswer, ApprovalQuestion, ApprovalReply } from '../../shared/agent/index.ts';
import type { ShellSandbox, ToolSpec } from '../../shared/tools/index.ts';
import type { ShellJudgement } from './shell-policy.ts';

// The tool gate's contract: what tool dispatch asks before a call runs, and what the policy answers.

/**
 * Asks a person. Resolves with their answer (with where an "always" answer holds, or alone: in the
 * conversation's workspace folder); rejecting or being absent counts as a denial. `signal` aborts when the
 * question is withdrawn: its run stopped, it timed out, or a rule now decides the call. The reason is then
 * a QuestionWithdrawn saying how the call was decided.
 */
export type Approver = (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalAnswer | ApprovalReply>;

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
  /** Who makes the call when it is not the conversation's own agent (a child agent's description): shown with the question. */
  label?: string;
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
