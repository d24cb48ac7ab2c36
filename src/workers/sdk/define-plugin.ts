import type { z } from 'zod';
import type { Disposable } from '../../shared/disposable.ts';
import type {
  AllowanceDeclaration,
  AllowanceRequest,
  AllowanceVerdict,
  CommandDeclaration,
  MethodDeclaration,
  PluginCommandResult,
  ContributionKind,
  PanelDeclaration,
  PanelViewModel,
  PromptBlockDeclaration,
  ProviderDeclaration,
  StatusSegment,
  StatusSegmentDeclaration,
  ToolDeclaration,
  WalletDeclaration,
  WalletState,
} from '../../shared/plugins/index.ts';
import type { HookPayloads, HookPoint, HookResults } from '../../shared/plugins/index.ts';
import type { PromptBlockContext, PromptBlockRender } from '../../shared/plugin-wire/index.ts';
import type { ProviderProbeRequest, ProviderProbeResult } from '../../shared/plugins/index.ts';
import { PROTOCOL_VERSION } from '../../shared/plugin-wire/index.ts';
import type { AbortSignalLike, StreamFn } from '../../shared/providers/index.ts';
import type { ShellSandbox } from '../../shared/tools/index.ts';
import type { ToolOutput } from '../../shared/tools/index.ts';
import type { ElicitationAnswer, ElicitationRequest } from '../../shared/elicitation/index.ts';

// What a plugin author writes: `export default definePlugin({ initialize, shutdown, capabilities })`.
// Declarations are plain data that main validates; the functions beside them run in the plugin's process.

type Awaitable<T> = T | Promise<T>;

export interface PluginLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginContext {
  readonly pluginId: string;
  /**
   * The folder new conversations start in by default. A tool call's own folder (the conversation's, which
   * the user may change) comes with the call: ToolCallOptions.workspace.
   */
  readonly workspace: string;
  /** The settings as they were at the handshake; read `config` for the live value. */
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * Reads the host's config for this plugin at the moment of the call, never a cached copy. Inside a
   * provider stream or an allowance check it is the config main sent with that call (read as main made it).
   */
  config<T = unknown>(key: string): Promise<T | undefined>;
  configAll(): Promise<Record<string, unknown>>;
  events: {
    /**
     * Listens to a topic (main's events such as `plugin.stateChanged`, and other plugins' emits). With
     * `types`, only payloads whose `type` is one of them (e.g. agent events) reach the listener, and main
     * sends the plugin no others (as long as every listener of the topic names its types).
     */
    on(topic: string, listener: (payload: unknown) => void, options?: { types?: readonly string[] }): Disposable;
    emit(topic: string, payload: unknown): void;
  };
  /** Replaces a status segment or panel this plugin declared; the renderer redraws it. */
  updateStatus(segment: StatusSegment): void;
  updatePanel(panel: PanelViewModel): void;
  /** Tells main a balance this plugin read on its own (on tick), for a wallet it declared. */
  updateWallet(id: string, state: WalletState): void;
  /**
   * Replaces the tools this plugin offers beside those `capabilities()` declared, for tools that appear and
   * change while it runs. Each call replaces the whole set (`[]` removes them all). Main checks them like
   * declarations; the promise rejects with the reason when it refuses the set, and then none of it is
   * installed. Switching the plugin off removes them with everything else.
   */
  setTools(tools: ToolContribution[]): Promise<void>;
  /**
   * Asks the user to fill a form (an MCP server's elicitation): shown on the card of the running tool call
   * `callId` names (ToolCallOptions.callId), else in a dialog. Resolves with accept (the values, checked against
   * the form), decline or cancel; declined at once where no one can be asked (an unattended run). Aborting
   * `signal` withdraws the form (answered as cancel). Rejects with a sentence when main refuses the form.
   */
  elicit(request: Omit<ElicitationRequest, 'requestId'>, signal?: AbortSignalLike): Promise<ElicitationAnswer>;
  log: PluginLogger;
}

type In<T extends z.ZodType> = z.input<T>;

/** What a tool call comes with besides its arguments. */
export interface ToolCallOptions {
  signal: AbortSignalLike;
  /** Main's id of this call: name it when asking the user something for it (PluginContext.elicit). */
  callId?: string;
  /** The conversation the call belongs to; absent for a call made outside a conversation. */
  sessionId?: string;
  /**
   * The conversation's workspace folder (absolute, real): the root a tool that touches files must confine
   * itself to. Absent outside a conversation: such a tool should then refuse.
   */
  workspace?: string;
  /** Folders no tool may touch whatever the path (Amber's own data folder). */
  denied?: readonly string[];
  /**
   * For a shell tool: the OS sandbox main's policy chose for this call (see ShellSandbox), already checked
   * by the host. Absent when main sent none or a malformed one: a shell tool must then run its command as
   * confined as it can (read-only, no network), never unconfined.
   */
  sandbox?: ShellSandbox;
  /** True when a child agent (the task tool's sub-agent) makes the call rather than the conversation's own agent. */
  subagent?: boolean;
  /**
   * Shows progress text in the call's tool card as it happens (appended; never sent to the model). Cheap
   * to call often: the host batches it. Calls after the tool has returned are ignored.
   */
  update?(text: string): void;
}

export interface ToolContribution extends In<typeof ToolDeclaration> {
  execute(args: Record<string, unknown>, options: ToolCallOptions): Awaitable<ToolOutput | string>;
}
export interface PromptBlockContribution extends In<typeof PromptBlockDeclaration> {
  /** Its text, or its text and the things it drew on (`sources`, at most 20): they are recorded on the reply and shown under it. */
  render(context: PromptBlockContext): Awaitable<PromptBlockRender>;
}
export type StatusSegmentContribution = In<typeof StatusSegmentDeclaration>;
export interface PanelContribution extends In<typeof PanelDeclaration> {
  onAction?(actionId: string): Awaitable<void>;
}
export interface ProviderContribution extends In<typeof ProviderDeclaration> {
  /**
   * Must never throw: failures end the stream with one `error` event. The request is read-only (its
   * messages are frozen: the host keeps them for the next request, which builds on them).
   */
  stream: StreamFn;
}
export interface WalletContribution extends In<typeof WalletDeclaration> {
  refresh(): Awaitable<WalletState>;
}
export interface AllowanceContribution extends In<typeof AllowanceDeclaration> {
  check(request: AllowanceRequest): Awaitable<AllowanceVerdict>;
}
export interface CommandContribution extends In<typeof CommandDeclaration> {
  run(args: string[]): Awaitable<PluginCommandResult | string>;
}
/**
 * A method main calls by name (see MethodDeclaration). `args` is whatever main sent: parse it with the
 * schema of the method's table in shared before use. What it returns goes back as plain data; what it throws
 * reaches main as the error's message.
 */
export interface MethodContribution extends In<typeof MethodDeclaration> {
  call(args: unknown): Awaitable<unknown>;
}
/**
 * A call into the plugin at one point of a run (`input`, `before_agent_start`, `context`, `tool_call`,
 * `tool_result`), in load order after the plugins before it, seeing their changes. Answer nothing (or null)
 * to change nothing. A hook that throws, answers in the wrong shape or takes longer than its time limit is
 * skipped and reported to the user; the run goes on. Except at `tool_call`, where such a hook blocks the
 * call it was asked about (fails closed), unless it is declared `advisory: true`: then it is skipped too.
 */
export type HookContribution = {
  [P in HookPoint]: { kind: 'hook'; point: P; advisory?: boolean; run(event: HookPayloads[P]): Awaitable<HookResults[P] | null | undefined | void> };
}[HookPoint];
/** A declaration the plugin chose not to install this time (e.g. a tool gated on config). Normal. */
export interface DeclinedContributionInput {
  kind: ContributionKind;
  key: string;
  declined: string;
}

export type PluginContribution =
  | ToolContribution
  | PromptBlockContribution
  | StatusSegmentContribution
  | PanelContribution
  | ProviderContribution
  | WalletContribution
  | AllowanceContribution
  | CommandContribution
  | HookContribution
  | MethodContribution
  | DeclinedContributionInput;

export interface PluginDefinition {
  /** Optional: the manifest's id and version, for the plugin's own use; main reads `manifest.json`. */
  manifest?: { id?: string; version?: string };
  /** Returning false fails the plugin: nothing is installed. */
  initialize(ctx: PluginContext): Awaitable<boolean | void>;
  /** Releases the plugin's own state. It never unregisters anything: main's ledger does. */
  shutdown(): Awaitable<void>;
  /** Time-driven work, run in the plugin's process on main's clock; a tick still running is not overlapped. */
  tick?(): Awaitable<void>;
  /** Declared in order; installed in that order. */
  capabilities(): Awaitable<PluginContribution[]>;
  /**
   * Optional, for provider plugins: the connection test of the first-run screen. Lists the models of the
   * endpoint in `request` (the user's, not an account's: it runs before any account is set up). Must not
   * throw, must give up when `signal` aborts, and must never put the key in its answer: `message` says what
   * to fix when `ok` is false. Main accepts at most MAX_PROBE_MODELS ids of MAX_PROBE_MODEL_ID_CHARS.
   */
  probe?(request: ProviderProbeRequest, signal: AbortSignal): Awaitable<ProviderProbeResult>;
}

export interface DefinedPlugin extends PluginDefinition {
  readonly protocolVersion: number;
}

export function definePlugin(definition: PluginDefinition): DefinedPlugin {
  return { ...definition, protocolVersion: PROTOCOL_VERSION };
}

export function decline(kind: ContributionKind, key: string, reason: string): DeclinedContributionInput {
  return { kind, key, declined: reason };
}

export function isDefinedPlugin(value: unknown): value is DefinedPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<DefinedPlugin>;
  return (
    typeof v.protocolVersion === 'number' && typeof v.initialize === 'function' && typeof v.capabilities === 'function' && typeof v.shutdown === 'function'
  );
}
