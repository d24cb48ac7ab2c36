import type { ProviderEvent, ProviderRequest } from '../providers/index.ts';
import type { RequestBase } from '../sent-requests.ts';
import type { ToolCallContext, ToolOutput } from '../tools/index.ts';
import type { ElicitationAnswer, ElicitationRequest } from '../elicitation/index.ts';
import type {
  AllowanceRequest,
  AllowanceVerdict,
  PluginCommandResult,
  PanelViewModel,
  StatusSegment,
  ToolDeclaration,
  WalletState,
  Handshake,
  HandshakeReply,
  HookPoint,
  InitializeResult,
} from '../plugins/index.ts';
import type { ProviderProbeRequest, ProviderProbeResult } from '../plugins/index.ts';

// Two RPC surfaces over one pipe, one exposed API per direction (comlink; no proxies cross the pipe).
// Every message carries a channel tag (protocol.ts) saying which surface it belongs to.
// Methods start with `$` so each hop is visible where it is called. Arguments and results are plain data.

/** What a prompt block sees when it renders. */
export interface PromptBlockContext {
  sessionId: string | null;
  workspace: string;
  /**
   * What the request is about: the latest user message, then the turns before it, newest first (at most
   * 4,000 characters). For blocks that choose what to add (memory recall). Absent outside a run.
   */
  prompt?: string;
}

/** What a prompt block renders: its text, or its text and what it drew on (at most 20, labels at most 200 characters). */
export type PromptBlockRender = string | { text: string; sources?: { id: string; label: string }[] };

/** Implemented by the plugin host (src/workers/plugin-host), called by main. */
export interface PluginApi {
  /** Loads the plugin module and checks the protocol. */
  $handshake(hello: Handshake): Promise<HandshakeReply>;
  /** Runs the plugin's `initialize(ctx)` then `capabilities()`. */
  $initialize(): Promise<InitializeResult>;
  /** Runs the plugin's `shutdown()`; the process exits on its own shortly after answering. */
  $shutdown(): Promise<void>;
  $tick(): Promise<void>;
  /**
   * A tool that throws answers an `isError` output; the call id lets main cancel it. `context` names the
   * conversation and its workspace folder (null for a call outside a conversation).
   */
  $executeTool(callId: string, name: string, args: unknown, context: ToolCallContext | null): Promise<ToolOutput>;
  $cancel(callId: string): Promise<void>;
  /**
   * The block's text, or its text and the things it drew on (checked in main: RenderedBlock in src/shared/plugins).
   * `call` as for $streamProvider: a block renders before every model call, so it is spared the round trip.
   */
  $renderBlock(id: string, context: PromptBlockContext, call?: CallConfig): Promise<PromptBlockRender>;
  /**
   * Streams through HostApi.$providerEvent(streamId, …) and resolves once the last event is sent. `call`
   * carries the plugin's config as main read it for this call, so the plugin need not ask for it, and
   * the earlier request this one builds on, whose parts it then leaves out (see sent-requests.ts).
   */
  $streamProvider(streamId: string, providerId: string, request: ProviderRequest, call?: CallConfig): Promise<void>;
  $refreshWallet(id: string): Promise<WalletState>;
  /**
   * `call` as for $streamProvider: the check runs before every model call, so it is spared the round trip. An
   * answer of `inactive` (it limits nothing) stands for a while in main without asking again, until main
   * calls the plugin for anything else or it restarts (INACTIVE_ALLOWANCE_HOLD_MS in main).
   */
  $checkAllowance(id: string, request: AllowanceRequest, call?: CallConfig): Promise<AllowanceVerdict>;
  $runCommand(path: string[], args: string[]): Promise<PluginCommandResult>;
  /** Runs a method the plugin declared (kind 'method'); answers what it returned, or rejects with what it threw. */
  $callMethod(name: string, args: unknown): Promise<unknown>;
  $panelAction(panelId: string, actionId: string): Promise<void>;
  /** An event the plugin subscribed to. */
  $event(topic: string, payload: unknown): Promise<void>;
  /** Runs the plugin's hook at one interception point (hooks.ts); answers its result, or null for no change. */
  $runHook(point: HookPoint, payload: unknown): Promise<unknown>;
  /**
   * The connection test of a provider plugin: lists the endpoint's models, giving up after `timeoutMs`.
   * Answers ok: false with a sentence for every failure; rejects only when the plugin has no `probe`.
   */
  $probe(request: ProviderProbeRequest, timeoutMs: number): Promise<ProviderProbeResult>;
}

/** A plugin's log levels (the zod schema is `LogLevel` in host-api-args.ts: this module stays free of zod, which the plugin process never loads). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What main sends beside a hot call: the plugin's config as `$getConfig` would have answered it then. */
export interface CallConfig {
  config?: Record<string, unknown>;
  /** The earlier provider request this one builds on: its first messages, and its system prompt and tools when marked. */
  base?: RequestBase;
}

/** Implemented by main (src/main/plugins), called by the plugin host on the plugin's behalf. */
export interface HostApi {
  /** The plugin's config at the moment of the call: never a cached copy. */
  $getConfig(): Promise<Record<string, unknown>>;
  $emit(topic: string, payload: unknown): Promise<void>;
  /**
   * Subscribes to a topic, or changes the subscription's filter: with one, only payloads whose `type` it
   * lists are sent (null or none: all of them).
   */
  $subscribe(topic: string, filter?: { types: string[] } | null): Promise<void>;
  $unsubscribe(topic: string): Promise<void>;
  /** Only for segments and panels this plugin registered. */
  $updateStatus(segment: StatusSegment): Promise<void>;
  $updatePanel(panel: PanelViewModel): Promise<void>;
  /** A balance the plugin read on its own (on tick), for a wallet this plugin registered. */
  $updateWallet(id: string, state: WalletState): Promise<void>;
  /** `dropped` counts log lines and events the plugin side dropped before this line (see plugin-host.ts). */
  $log(level: LogLevel, message: string, dropped?: number): Promise<void>;
  /** Events of one provider stream, in order; batched so a fast stream is a few calls, not thousands. */
  $providerEvent(streamId: string, events: ProviderEvent[]): Promise<void>;
  /**
   * Progress text of a running tool call (`callId` as given to `$executeTool`), shown in its card and never
   * sent to the model. Batched by the plugin host; at most MAX_TOOL_UPDATE_CHARS per call.
   */
  $toolUpdate(callId: string, text: string): Promise<void>;
  /**
   * Replaces the tools this plugin offers beside the ones `capabilities()` declared (e.g. tools a remote
   * server lists, which change while the plugin runs). Validated like declarations; the previous set is
   * removed and the new one installed through the ledger, so deactivation removes them too. Rejects, leaving
   * no tool of the set installed, when one is invalid or its name is taken.
   */
  $setTools(tools: ToolDeclaration[]): Promise<void>;
  /**
   * Asks the user to fill a form (an MCP server's elicitation) and answers what they chose: accept with the
   * values (checked against the form), decline or cancel. With no one to ask (an unattended run) it is
   * declined at once. Rejects with a sentence when the request is malformed or names a call not running.
   */
  $elicit(request: ElicitationRequest): Promise<ElicitationAnswer>;
  /** Withdraws a form this plugin asked for and no longer needs (its asker gave up): it is answered as cancelled. */
  $elicitCancel(requestId: string): Promise<void>;
}

/** The most text one `$toolUpdate` may carry; main refuses longer ones. */
export const MAX_TOOL_UPDATE_CHARS = 64 * 1024;
/** The most progress text main passes on for one tool call; the rest is dropped (the result still comes). */
export const MAX_TOOL_STREAM_CHARS = 2 * 1024 * 1024;
