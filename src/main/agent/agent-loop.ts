import type { AgentEndReason, AgentEvent } from '../../shared/agent/index.ts';
import type { MemoriesExtracted } from '../../shared/context/index.ts';
import type { ModelInfo, StreamFn } from '../../shared/providers/index.ts';
import type { Message, UserMessage } from '../../shared/sessions/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import type { AgentHooks } from './agent-hooks.ts';
import { AgentRun } from './agent-run.ts';
import type { CompactionSettings } from './compactor.ts';
import type { PromptBlock } from './prompt-assembly.ts';
import type { RecoveryLimits } from './recovery-monitor.ts';
import type { ToolDispatcher, ToolSource } from './tool-dispatcher.ts';
import type { MaskingSettings } from './tool-output-masking.ts';

export { HOOK_MESSAGE_TYPE, NO_WORKSPACE } from './agent-run.ts';

export interface ModelRef {
  provider: string;
  modelId: string;
}

export interface ResolvedProvider {
  stream: StreamFn;
  model: ModelInfo;
  /**
   * Told that another call to this model follows once the reply just stored has its tool results, so
   * that what must happen before that call (its allowance check) can start while the tools run.
   */
  prepare?: () => void;
}

/** Finds the stream function and model info for a model; throws (a sentence) when it cannot. */
export type ProviderResolver = (ref: ModelRef) => ResolvedProvider | Promise<ResolvedProvider>;

export type PromptContent = UserMessage['content'];

/** An AgentEvent before the run stamps its session and run ids on it. */
export type RunEvent = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 'sessionId' | 'runId'> : never) : never;

/** The system message, tools and messages of one model request, as sent. */
export interface SentPrompt {
  sessionId: string;
  systemPrompt: string;
  tools: ToolSpec[];
  /** The context, then the tail blocks, as the request carried them. */
  messages: readonly Message[];
  at: number;
}

export interface LoopDeps {
  store: SessionStore;
  resolveProvider: ProviderResolver;
  tools: ToolSource;
  dispatcher: ToolDispatcher;
  promptBlocks: () => readonly PromptBlock[];
  /** The run's system message for the tools offered (the prompt blocks are added after it): asked once a run while the tools stay the same. */
  systemPrompt: (sessionId: string, tools: readonly ToolSpec[]) => string | Promise<string>;
  /** Told what each model request carried (the window's "View prompt"). Must not throw. */
  onRequest?: (request: SentPrompt) => void;
  clock: () => number;
  maxIterations: number;
  compaction: CompactionSettings;
  /** The share of the window a layered compaction's kept context may fill (the setting context.keepPercent, as a share), read at each compaction. */
  keepShare?: () => number;
  /** Told of the memories a compaction's extraction found (the memory.extracted plugin topic). Must not throw. */
  onMemories?: (extracted: MemoriesExtracted) => void;
  /** Hiding old tool output from each request (see tool-output-masking.ts), read every turn. Default: DEFAULT_MASKING. */
  masking?: () => MaskingSettings;
  recovery: Partial<RecoveryLimits>;
  defaultModel: ModelRef | null;
  /**
   * The conversation's workspace folder for its tool calls, asked for when it has none; null when none was
   * chosen (the calls are then denied).
   */
  workspaceRoot: (sessionId: string, signal: AbortSignal) => string | null | Promise<string | null>;
  renderTimeoutMs?: number;
  /**
   * Silent confirm turns: after a run that used tools ends with a reply without tool calls, the model is
   * asked (invisibly) whether the task is finished, at most `max` times a run. Default on, 2.
   */
  confirm?: { enabled: boolean; max: number };
  /** The plugins' hooks (before_agent_start, context, tool_call, tool_result). Default: none. */
  hooks?: AgentHooks;
}

/** What the loop needs from the run it serves. */
export interface RunHandle {
  sessionId: string;
  signal: AbortSignal;
  emit(event: RunEvent): void;
  /** Steering messages queued since the last call, oldest first (the queue is emptied). */
  takeSteering(): PromptContent[];
  takeFollowUps(): PromptContent[];
  /** The text of the message that started the run ('' when it continues from the leaf), for before_agent_start. */
  promptText?: string;
}

export interface LoopEnd {
  reason: AgentEndReason;
  error?: string;
}

/**
 * One run of the loop over a session whose prompt is already persisted, until it stops (see AgentRun for
 * the steps of a turn). Resolves with why it ended; throws only where a store write throws.
 */
export function runAgentLoop(deps: LoopDeps, run: RunHandle): Promise<LoopEnd> {
  return new AgentRun(deps, run).execute();
}
