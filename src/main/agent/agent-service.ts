import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../shared/agent/index.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { HookFailure } from '../../shared/plugins/hooks.ts';
import { contentText, type Entry } from '../../shared/sessions/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { ToolGate } from '../policy/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import {
  runAgentLoop,
  type LoopDeps,
  type LoopEnd,
  type ModelRef,
  type PromptContent,
  type ProviderResolver,
  type RunEvent,
  type SentPrompt,
} from './agent-loop.ts';
import { type AgentHooks, applyInputHooks, noHooks } from './agent-hooks.ts';
import { assertIdle } from './assert-idle.ts';
import { compactSession, DEFAULT_COMPACTION, type CompactionOutcome, type CompactionSettings } from './compactor.ts';
import type { MemoriesExtracted } from '../../shared/context/index.ts';
import type { PromptBlock } from './prompt-assembly.ts';
import type { RecoveryLimits } from './recovery-monitor.ts';
import { ToolDispatcher, emptyToolSource, type ToolSource } from './tool-dispatcher.ts';
import type { MaskingSettings } from './tool-output-masking.ts';
import type { ToolOutputKeeper } from './tool-output-store.ts';

export interface AgentServiceOptions {
  store: SessionStore;
  resolveProvider: ProviderResolver;
  tools?: ToolSource;
  /** Read on every turn, so blocks added or removed (plugins toggled) apply from the next turn. */
  promptBlocks?: () => readonly PromptBlock[];
  /** The run's system message (see LoopDeps.systemPrompt). Default: none. */
  systemPrompt?: string | LoopDeps['systemPrompt'];
  /**
   * Decides whether a tool call may run: the app's one PolicyService (built by createApp, which the API's
   * policy routes change too), or a test's own gate. The agent only asks it.
   */
  gate: ToolGate;
  /** Receives every event of every run. Must not throw (a throw is swallowed). */
  emit?: (event: AgentEvent) => void;
  clock?: () => number;
  newRunId?: () => string;
  /** Model calls per run before it stops with 'max_iterations'. */
  maxIterations?: number;
  compaction?: Partial<CompactionSettings>;
  /** The share of the window a layered compaction keeps (the setting context.keepPercent, as a share), read at each compaction. Default: DEFAULT_KEEP_SHARE. */
  keepShare?: () => number;
  /** Old tool output hidden from each request, read every turn (the settings `context.mask*`). Default: DEFAULT_MASKING. */
  masking?: () => MaskingSettings;
  recovery?: Partial<RecoveryLimits>;
  /** The model of a session whose branch has no model_change entry. */
  defaultModel?: ModelRef | null;
  /**
   * The workspace folder of a session's tool calls (see LoopDeps.workspaceRoot). Default: the session's
   * folder, else none (the calls are denied) — never the process's working directory.
   */
  workspaceRoot?: LoopDeps['workspaceRoot'];
  /** Milliseconds a prompt block may take to render before it is skipped for the turn. */
  promptBlockTimeoutMs?: number;
  /**
   * The plugins' hooks: `input` on each message of the user's before it is stored (here for the one that
   * starts a run, in the loop for steering and follow-ups), the others in the loop. Default: none.
   */
  hooks?: AgentHooks;
  /** Where the full text of a tool result cut at MAX_TOOL_RESULT_CHARS is kept. Default: nowhere. */
  toolOutputs?: ToolOutputKeeper;
}

export interface StartOptions {
  /** Appends a model_change entry first when it differs from the branch's current model. */
  model?: ModelRef;
  /** Appends a thinking_level_change entry first when it differs from the branch's current level. */
  thinkingLevel?: string;
}

export interface RunResult {
  runId: string;
  reason: LoopEnd['reason'];
  error?: string;
  /** Steering and follow-up messages queued but never delivered (the run ended first); for the UI to restore. */
  undelivered: PromptContent[];
}

export interface StartedRun {
  runId: string;
  /** Settles after agent_settled; never rejects. */
  done: Promise<RunResult>;
}

interface ActiveRun {
  runId: string;
  controller: AbortController;
  steering: PromptContent[];
  followUps: PromptContent[];
  done: Promise<RunResult>;
}

const DEFAULT_MAX_ITERATIONS = 100;

/**
 * Runs the agent loop on sessions, one run per session at a time. A run starts from the session's
 * current leaf (so after `store.branch` it continues from there); steering is delivered after the
 * current tool round, follow-ups when the agent would stop; abort works at any moment.
 */
export class AgentService {
  readonly store: SessionStore;
  readonly gate: ToolGate;
  readonly #deps: LoopDeps;
  readonly #emit: ((event: AgentEvent) => void) | undefined;
  // A listener's failure must not break the run.
  readonly #emitted = new Emitter<AgentEvent>();
  /** Every run's events, and a conversation opened or resumed (session_start), in order. */
  readonly onDidEmit: Event<AgentEvent> = this.#emitted.event;
  readonly #extracted = new Emitter<MemoriesExtracted>();
  /** The memories a compaction's extraction found, with the compaction entry they came with (for the memory.extracted topic). */
  readonly onDidExtractMemories: Event<MemoriesExtracted> = this.#extracted.event;
  readonly #newRunId: () => string;
  readonly #runs = new Map<string, ActiveRun>();
  readonly #lastPrompts = new Map<string, SentPrompt>();
  #disposed = false;

  constructor(options: AgentServiceOptions) {
    this.store = options.store;
    this.gate = options.gate;
    this.#emit = options.emit;
    this.#newRunId = options.newRunId ?? randomUUID;
    const clock = options.clock ?? Date.now;
    const tools = options.tools ?? emptyToolSource;
    const systemPrompt = options.systemPrompt ?? '';
    const store = options.store;
    this.#deps = {
      store,
      resolveProvider: options.resolveProvider,
      tools,
      dispatcher: new ToolDispatcher({ tools, gate: this.gate, clock, ...(options.toolOutputs ? { outputs: options.toolOutputs } : {}) }),
      promptBlocks: options.promptBlocks ?? (() => []),
      systemPrompt: typeof systemPrompt === 'string' ? () => systemPrompt : systemPrompt,
      clock,
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      compaction: { ...DEFAULT_COMPACTION, ...options.compaction },
      ...(options.keepShare ? { keepShare: options.keepShare } : {}),
      onMemories: (extracted) => this.#memoriesExtracted(extracted),
      ...(options.masking ? { masking: options.masking } : {}),
      recovery: options.recovery ?? {},
      defaultModel: options.defaultModel ?? null,
      workspaceRoot: options.workspaceRoot ?? ((sessionId) => store.get(sessionId).cwd),
      ...(options.promptBlockTimeoutMs !== undefined ? { renderTimeoutMs: options.promptBlockTimeoutMs } : {}),
      onRequest: (sent) => this.#lastPrompts.set(sent.sessionId, sent),
      hooks: options.hooks ?? noHooks,
    };
  }

  /** The system message and tools of the session's last model request in this process, or null. */
  lastPrompt(sessionId: string): SentPrompt | null {
    return this.#lastPrompts.get(sessionId) ?? null;
  }

  /** Tells listeners (the window, plugins) that a conversation was opened or resumed: a session_start event. */
  sessionStarted(sessionId: string, reason: 'open' | 'resume'): void {
    this.#broadcast({ type: 'session_start', sessionId, runId: '', reason });
  }

  isRunning(sessionId: string): boolean {
    return this.#runs.has(sessionId);
  }

  /**
   * Starts a run: persists the prompt under the session's leaf (none: continue from the leaf as it is,
   * e.g. to regenerate a reply after branching to its parent) and loops until the agent stops.
   * Throws at once if the session does not exist or already has a run.
   */
  start(sessionId: string, prompt: PromptContent | null, options: StartOptions = {}): StartedRun {
    if (this.#disposed) throw new AmberError('unavailable', 'The agent is shutting down; try again after restart.');
    // Steering the running reply or queueing a follow-up are the ways to add to it.
    assertIdle(this, sessionId, 'send another message (or steer it, or queue a follow-up)');
    this.store.get(sessionId);
    const run: Omit<ActiveRun, 'done'> = { runId: this.#newRunId(), controller: new AbortController(), steering: [], followUps: [] };
    // #execute yields before its first step, so the run is registered before anything happens.
    const active: ActiveRun = { ...run, done: this.#execute(sessionId, run, prompt, options) };
    this.#runs.set(sessionId, active);
    return { runId: active.runId, done: active.done };
  }

  /** start() and wait for the run to settle. */
  prompt(sessionId: string, prompt: PromptContent, options: StartOptions = {}): Promise<RunResult> {
    return this.start(sessionId, prompt, options).done;
  }

  /** Queues a message for after the current tool round. false: no run is going (send it as a prompt instead). */
  steer(sessionId: string, content: PromptContent): boolean {
    const run = this.#runs.get(sessionId);
    if (!run || run.controller.signal.aborted) return false;
    run.steering.push(content);
    return true;
  }

  /** Queues a message for when the agent would otherwise stop. false: no run is going. */
  followUp(sessionId: string, content: PromptContent): boolean {
    const run = this.#runs.get(sessionId);
    if (!run || run.controller.signal.aborted) return false;
    run.followUps.push(content);
    return true;
  }

  /** Stops the session's run; the partial reply is kept, marked aborted. false: no run is going. */
  abort(sessionId: string): boolean {
    const run = this.#runs.get(sessionId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Waits for the session's run, if any, to settle. */
  async settled(sessionId: string): Promise<void> {
    await this.#runs.get(sessionId)?.done;
  }

  /** Appends a model_change entry on the session's branch (not while a run is going). */
  setModel(sessionId: string, model: ModelRef): Entry {
    assertIdle(this, sessionId, 'switch models');
    return this.store.append(sessionId, { type: 'model_change', provider: model.provider, modelId: model.modelId });
  }

  /** Appends a thinking_level_change entry on the session's branch (not while a run is going). */
  setThinkingLevel(sessionId: string, thinkingLevel: string): Entry {
    assertIdle(this, sessionId, 'change the thinking level');
    return this.store.append(sessionId, { type: 'thinking_level_change', thinkingLevel });
  }

  /**
   * Summarises the older part of the session's branch now (the /compact command), with the branch's model
   * (else `model`, else the default). All or nothing, like compaction inside a run; not while a run is going.
   */
  async compact(sessionId: string, options: { model?: ModelRef; signal?: AbortSignal } = {}): Promise<CompactionOutcome> {
    assertIdle(this, sessionId, 'summarise it');
    const context = this.store.context(sessionId);
    const ref = context.model ?? options.model ?? this.#deps.defaultModel;
    if (!ref) return { ok: false, reason: 'No model is chosen for this conversation, so none can write the summary.' };
    let provider;
    try {
      provider = await this.#deps.resolveProvider(ref);
    } catch (e) {
      return { ok: false, reason: `The model ${ref.provider}/${ref.modelId} is not available: ${errorMessage(e)}` };
    }
    const outcome = await compactSession({
      store: this.store,
      sessionId,
      context,
      stream: provider.stream,
      model: provider.model,
      provider: ref.provider,
      keepRecentTokens: this.#deps.compaction.keepRecentTokens,
      strategy: this.#deps.compaction.strategy,
      ...(this.#deps.keepShare ? { keepShare: this.#deps.keepShare() } : {}),
      signal: options.signal ?? new AbortController().signal,
      clock: this.#deps.clock,
    });
    // Told like a run's compaction: the window shows it and the budget charges the summary's usage.
    if (outcome.ok) {
      this.#broadcast({ type: 'entry_appended', sessionId, runId: '', entry: outcome.entry });
      if (outcome.memories.length > 0) this.#memoriesExtracted({ sessionId, entryId: outcome.entry.id, memories: outcome.memories });
    }
    return outcome;
  }

  /** Stops every run and waits until they have settled. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const runs = [...this.#runs.values()];
    for (const run of runs) run.controller.abort();
    await Promise.all(runs.map((r) => r.done));
    this.#emitted.dispose();
    this.#extracted.dispose();
  }

  async #execute(sessionId: string, active: Omit<ActiveRun, 'done'>, prompt: PromptContent | null, options: StartOptions): Promise<RunResult> {
    const { runId, controller } = active;
    const emit = (event: RunEvent): void => this.#broadcast({ ...event, sessionId, runId } as AgentEvent);
    // Let start() return (and callers subscribe with the run id) before the first event.
    await Promise.resolve();
    emit({ type: 'agent_start' });
    let end: LoopEnd;
    try {
      const appendAndTell = (input: Parameters<SessionStore['append']>[1]): void =>
        emit({ type: 'entry_appended', entry: this.store.append(sessionId, input) });
      if (options.model || options.thinkingLevel !== undefined) {
        const current = this.store.branchState(sessionId);
        const model = options.model;
        if (model && (current.model?.provider !== model.provider || current.model.modelId !== model.modelId)) {
          appendAndTell({ type: 'model_change', provider: model.provider, modelId: model.modelId });
        }
        if (options.thinkingLevel !== undefined && current.thinkingLevel !== options.thinkingLevel) {
          appendAndTell({ type: 'thinking_level_change', thinkingLevel: options.thinkingLevel });
        }
      }
      const hooks = { hooks: this.#deps.hooks ?? noHooks, onError: (failure: HookFailure) => emit({ type: 'extension_error', ...failure }) };
      const input = prompt === null ? null : await applyInputHooks(hooks, sessionId, prompt);
      if (input?.swallowed !== undefined) {
        emit({ type: 'notice', code: 'input_handled', message: input.swallowed });
        end = { reason: 'stop' };
      } else {
        if (input) appendAndTell({ type: 'message', message: { role: 'user', content: input.content, timestamp: this.#deps.clock() } });
        end = await runAgentLoop(this.#deps, {
          sessionId,
          signal: controller.signal,
          emit,
          takeSteering: () => active.steering.splice(0),
          takeFollowUps: () => active.followUps.splice(0),
          promptText: input ? contentText(input.content) : '',
        });
      }
    } catch (e) {
      end = controller.signal.aborted ? { reason: 'aborted' } : { reason: 'error', error: `The run failed: ${errorMessage(e)}` };
    }
    emit(end.error !== undefined ? { type: 'agent_end', reason: end.reason, error: end.error } : { type: 'agent_end', reason: end.reason });
    const undelivered = [...active.steering.splice(0), ...active.followUps.splice(0)];
    this.#runs.delete(sessionId);
    emit({ type: 'agent_settled' });
    return { runId, ...end, undelivered };
  }

  /** Tells listeners of a compaction's memories, with the conversation's workspace folder (project memories are kept per folder). */
  #memoriesExtracted(extracted: MemoriesExtracted): void {
    let workspace: string | null | undefined;
    try {
      workspace = this.store.get(extracted.sessionId).cwd;
    } catch {
      workspace = null; // a conversation deleted meanwhile: its memories are still told, as global ones
    }
    this.#extracted.fire(workspace ? { ...extracted, workspace } : extracted);
  }

  #broadcast(event: AgentEvent): void {
    try {
      this.#emit?.(event);
    } catch {
      // a listener's failure must not break the run
    }
    this.#emitted.fire(event);
  }
}
