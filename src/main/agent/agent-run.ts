import { thinkingLevelOf } from '../../shared/agent/index.ts';
import type { AssistantMessage, Entry, EntryInput, Message, ModelContext, ReplySource, ToolCall, ToolResultMessage } from '../../shared/sessions/index.ts';
import { isAssistant, isToolResult } from '../../shared/sessions/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { errorMessage } from '../errors.ts';
import type { LoopDeps, LoopEnd, ModelRef, PromptContent, ResolvedProvider, RunHandle } from './agent-loop.ts';
import { applyInputHooks, noHooks, type RunHooks } from './agent-hooks.ts';
import { compactSession } from './compactor.ts';
import { confirmTurn } from './confirm-turn.ts';
import { estimateContextTokens, estimateTextTokens } from './context-tokens.ts';
import { assemblePrompt, type KeptRenders } from './prompt-assembly.ts';
import { RecoveryMonitor, toolCallsOf, type RecoveryAction } from './recovery-monitor.ts';
import { RunContext } from './run-context.ts';
import { DEFAULT_MASKING, maskToolOutput } from './tool-output-masking.ts';
import { streamReply, type StreamedReply } from './stream-reply.ts';
import { toolResult } from './tool-dispatcher.ts';

const RECOVERY_STEER_TYPE = 'amber.recovery';
/** A run compacts on its own only past this share of the window, whatever the threshold says. */
const MIN_COMPACTION_SHARE = 0.5;
/** Why a run compacts after the model refused its context as too long. */
const OVERFLOW_REASON = 'the model said the context is too long';
/** Messages a plugin's before_agent_start hook added: sent to the model, not shown. */
export const HOOK_MESSAGE_TYPE = 'amber.hook';

/** What a tool call reads when its conversation has no workspace folder and none was chosen. */
export const NO_WORKSPACE =
  'Not run: this conversation has no workspace folder, and none was chosen when asked. The user can choose one with the folder button at the top of the conversation or /workspace PATH; tell them so.';

/** What one turn settled for the model: the provider, its tools and the system message, after the compaction gate. */
interface TurnSetup {
  ref: ModelRef;
  provider: ResolvedProvider;
  specs: readonly ToolSpec[];
  systemPrompt: string;
}

/**
 * One run of the loop over a session whose prompt is already persisted: turn after turn (context →
 * compaction gate → prompt → stream → persist reply → tools → persist results) until a reply has no
 * tool calls and nothing is queued, or an error, an abort, a recovery stop or the iteration limit.
 * Every model-visible write goes through the store; the run keeps the context those writes make in memory
 * (RunContext) and reads it from the store again only when someone else moved the leaf or a compaction cut it.
 * Use once: `execute()` runs it to its end.
 */
export class AgentRun {
  readonly #deps: LoopDeps;
  readonly #run: RunHandle;
  readonly #sessionId: string;
  readonly #signal: AbortSignal;
  readonly #recovery: RecoveryMonitor;
  readonly #confirm: { enabled: boolean; max: number };
  readonly #hooks: RunHooks;
  readonly #context: RunContext;
  /** Whether any reply of this run called a tool (a run that did gets confirm turns). */
  #usedTools = false;
  /** Whether the user was told that the model does not think (once a run). */
  #toldNoThinking = false;
  #confirms = 0;
  /** The system message built for these tools: built once a run while they stay the same. */
  #builtPrompt: { specs: readonly ToolSpec[]; text: string } | null = null;
  /** What before_agent_start hooks add to every system prompt of this run. */
  #hookSystemPrompt = '';
  /** The renders of the prompt blocks declared `cache: 'run'`, kept for this run (see KeptRenders). */
  readonly #keptBlocks: KeptRenders = new Map();
  /** The tokens of the last turn's system message and tool specs (see #overheadTokens). */
  #overhead: { systemPrompt: string; specs: readonly ToolSpec[]; tokens: number } | null = null;

  constructor(deps: LoopDeps, run: RunHandle) {
    this.#deps = deps;
    this.#run = run;
    this.#sessionId = run.sessionId;
    this.#signal = run.signal;
    this.#recovery = new RecoveryMonitor(deps.recovery);
    this.#confirm = deps.confirm ?? { enabled: true, max: 2 };
    this.#hooks = { hooks: deps.hooks ?? noHooks, onError: (failure) => run.emit({ type: 'extension_error', ...failure }) };
    this.#context = new RunContext(deps.store, run.sessionId);
  }

  async execute(): Promise<LoopEnd> {
    const started = await this.#hooks.hooks.run(
      'before_agent_start',
      { sessionId: this.#sessionId, prompt: this.#run.promptText ?? '', systemPrompt: '', messages: [] },
      this.#hooks,
    );
    this.#hookSystemPrompt = started.payload.systemPrompt;
    for (const content of started.payload.messages) this.#append({ type: 'custom_message', customType: HOOK_MESSAGE_TYPE, content, display: false });

    for (let turn = 1; ; turn++) {
      if (this.#signal.aborted) return { reason: 'aborted' };
      if (turn > this.#deps.maxIterations) {
        return {
          reason: 'max_iterations',
          error: `The run stopped after ${this.#deps.maxIterations} model calls without finishing; send a message to let it go on.`,
        };
      }
      this.#run.emit({ type: 'turn_start', turn });
      let outcome: LoopEnd | 'continue';
      try {
        outcome = await this.#turn();
      } finally {
        this.#run.emit({ type: 'turn_end', turn });
      }
      if (outcome !== 'continue') return outcome;
    }
  }

  // ── a turn ──────────────────────────────────────────────────────────────

  async #turn(): Promise<LoopEnd | 'continue'> {
    const context = this.#context.current();
    // A session changed outside Amber is read-only: nothing of it is sent to a model.
    if (!context.integrity.ok) {
      return {
        reason: 'error',
        error: `This conversation was changed outside Amber (entries ${context.integrity.changed.join(', ')}), so it is read-only; start a new conversation to continue.`,
      };
    }
    const setup = await this.#setUp(context);
    if ('reason' in setup) return setup;
    if (this.#signal.aborted) return { reason: 'aborted' };

    let overflowRetried = false;
    for (;;) {
      const before = this.#context.current();
      const reply = await this.#callModel(before, setup);
      if (reply.errorKind === 'context_overflow' && !overflowRetried && !this.#signal.aborted) {
        overflowRetried = true;
        this.#persistReply(reply.message, setup.ref); // the failed reply is the leaf now, and stays out of the context
        if (!(await this.#compact(setup.provider, OVERFLOW_REASON))) {
          return { reason: this.#signal.aborted ? 'aborted' : 'error', error: reply.message.errorMessage ?? 'The conversation is too long for the model.' };
        }
        continue;
      }
      const previous = previousToolTurn(before.messages);
      this.#persistReply(reply.message, setup.ref, reply.sources);
      if (reply.errorKind === null && reply.message.stopReason !== 'length' && toolCallsOf(reply.message).length > 0 && !this.#signal.aborted) {
        try {
          setup.provider.prepare?.();
        } catch {
          // Preparing is an optimisation: the next call does what it needs on its own.
        }
      }
      if (reply.message.stopReason === 'aborted' || reply.errorKind === 'aborted') return { reason: 'aborted' };
      if (reply.errorKind !== null) {
        return { reason: reply.errorKind === 'blocked' ? 'blocked' : 'error', error: reply.message.errorMessage ?? 'The model call failed.' };
      }
      const next = await this.#afterReply(reply.message, previous, setup.specs);
      if (typeof next === 'object' && next.reason === 'stop' && this.#usedTools && this.#confirm.enabled && this.#confirms < this.#confirm.max) {
        this.#confirms++;
        return (await this.#confirmFinished(setup)) ? next : 'continue';
      }
      return next;
    }
  }

  /** The turn's model, tools and system message; compacts first when the context is nearly full. */
  async #setUp(context: ModelContext): Promise<TurnSetup | LoopEnd> {
    const ref = context.model ?? this.#deps.defaultModel;
    if (!ref) return this.#failTurn(null, 'No model is chosen for this conversation. Pick a model, then send again.');
    let provider: ResolvedProvider;
    try {
      provider = await this.#deps.resolveProvider(ref);
    } catch (e) {
      return this.#failTurn(ref, `The model ${ref.provider}/${ref.modelId} is not available: ${errorMessage(e)}`);
    }
    const level = thinkingLevelOf(context.thinkingLevel);
    if (level !== 'off' && !provider.model.reasoning && !this.#toldNoThinking) {
      this.#toldNoThinking = true;
      this.#notice('thinking_unsupported', `${ref.modelId} does not think before answering, so the thinking level (${level}) is not sent to it.`);
    }
    let specs: readonly ToolSpec[] = [];
    try {
      specs = await this.#deps.tools.list();
    } catch (e) {
      this.#notice('tools_unavailable', `The tools could not be listed, so this turn has none: ${errorMessage(e)}`);
    }
    const systemPrompt = await this.#systemPrompt(specs);
    // Before every model call, so also after each round of tool results; never below half the window (only /compact is).
    if (this.#deps.compaction.enabled) {
      const threshold = Math.max(MIN_COMPACTION_SHARE, this.#deps.compaction.threshold);
      if (estimateContextTokens(context, this.#overheadTokens(systemPrompt, specs)) > threshold * provider.model.contextWindow) {
        await this.#compact(provider, 'the context is nearly full');
      }
    }
    return { ref, provider, specs, systemPrompt };
  }

  /** Tokens the system message and the tools' specs take in a request: counted again only when either changed. */
  #overheadTokens(systemPrompt: string, specs: readonly ToolSpec[]): number {
    const kept = this.#overhead;
    if (kept && kept.systemPrompt === systemPrompt && sameSpecs(kept.specs, specs)) return kept.tokens;
    const tokens = estimateTextTokens(systemPrompt + JSON.stringify(specs));
    this.#overhead = { systemPrompt, specs, tokens };
    return tokens;
  }

  /** The run's system message for these tools, with what the before_agent_start hooks added. */
  async #systemPrompt(specs: readonly ToolSpec[]): Promise<string> {
    let text = '';
    // Built once a run for the same tools: it reads the project's instruction files, a cost per turn otherwise.
    if (this.#builtPrompt && sameSpecs(this.#builtPrompt.specs, specs)) text = this.#builtPrompt.text;
    else {
      try {
        text = await this.#deps.systemPrompt(this.#sessionId, specs);
        this.#builtPrompt = { specs, text };
      } catch (e) {
        this.#notice('prompt_block_failed', `The system prompt could not be built and was left out of this turn: ${errorMessage(e)}`);
      }
    }
    if (this.#hookSystemPrompt === '') return text;
    return text === '' ? this.#hookSystemPrompt : `${text}\n\n${this.#hookSystemPrompt}`;
  }

  /** The reply, and what the request's prompt blocks drew on (recorded on the reply, never sent). */
  async #callModel(context: ModelContext, setup: TurnSetup): Promise<StreamedReply & { sources: ReplySource[] }> {
    const sessionId = this.#sessionId;
    const signal = this.#signal;
    // Masking and the context hooks rewrite this request's messages only: the stored session stays as it is.
    const sent = maskToolOutput(context, this.#deps.masking?.() ?? DEFAULT_MASKING);
    const hooked = await this.#hooks.hooks.run('context', { sessionId, messages: sent.messages }, this.#hooks);
    const assembled = await assemblePrompt({
      systemPrompt: setup.systemPrompt,
      blocks: this.#deps.promptBlocks(),
      messages: hooked.payload.messages,
      context: { sessionId, signal },
      kept: this.#keptBlocks,
      ...(this.#deps.renderTimeoutMs !== undefined ? { renderTimeoutMs: this.#deps.renderTimeoutMs } : {}),
    });
    for (const f of assembled.failures) this.#notice('prompt_block_failed', `The prompt block ${f.blockId} was left out of this turn: ${f.error}`);
    try {
      this.#deps.onRequest?.({
        sessionId,
        systemPrompt: assembled.systemPrompt,
        tools: [...setup.specs],
        messages: assembled.messages,
        at: this.#deps.clock(),
      });
    } catch {
      // Recording what was sent must never break the turn.
    }
    this.#run.emit({ type: 'message_start', role: 'assistant' });
    const reply = await streamReply({
      stream: setup.provider.stream,
      request: {
        model: setup.provider.model,
        systemPrompt: assembled.systemPrompt,
        messages: assembled.messages,
        tools: [...setup.specs],
        thinkingLevel: context.thinkingLevel,
      },
      signal,
      provider: setup.ref.provider,
      clock: this.#deps.clock,
      onDelta: (delta) => this.#run.emit({ type: 'message_update', delta }),
      onNotice: (message) => this.#notice('provider_notice', message),
    });
    return { ...reply, sources: assembled.sources };
  }

  /** The reply's tool calls, recovery, steering and follow-ups: 'continue' when another turn follows. */
  async #afterReply(message: AssistantMessage, previous: AssistantMessage | null, specs: readonly ToolSpec[]): Promise<LoopEnd | 'continue'> {
    const calls = toolCallsOf(message);
    const judged = this.#recovery.onReply(message);
    const stop = judged.find((a): a is Extract<RecoveryAction, { kind: 'stop' }> => a.kind === 'stop');
    if (stop) {
      this.#refuseAll(calls, 'denied', `Not run: ${stop.message}`);
      return { reason: stop.reason, error: stop.message };
    }
    let results: ToolResultMessage[] = [];
    if (calls.length > 0 && message.stopReason === 'length') {
      results = this.#refuseAll(
        calls,
        'error',
        'Not run: your reply was cut off at the output limit, so this call may be incomplete. Make the call again with complete arguments, or split the work into smaller steps.',
      );
    } else if (calls.length > 0) {
      this.#usedTools = true;
      const ran = await this.#runTools(calls, previous, specs);
      if (ran === 'aborted') return { reason: 'aborted' };
      results = ran;
    }
    if (this.#signal.aborted) return { reason: 'aborted' };
    const afterTools = this.#recovery.onResults(results);
    if (afterTools?.kind === 'stop') return { reason: afterTools.reason, error: afterTools.message };

    const steers = [...judged, ...(afterTools ? [afterTools] : [])].filter((a): a is Extract<RecoveryAction, { kind: 'steer' }> => a.kind === 'steer');
    for (const steer of steers) {
      this.#append({ type: 'custom_message', customType: RECOVERY_STEER_TYPE, content: steer.text, display: true });
      this.#notice('recovery_steer', steer.text);
    }
    const steering = await this.#appendUserMessages(this.#run.takeSteering());
    if (calls.length > 0 || steers.length > 0 || steering > 0) return 'continue';

    const followUps = await this.#appendUserMessages(this.#run.takeFollowUps());
    return followUps > 0 ? 'continue' : { reason: 'stop' };
  }

  /** Runs the reply's calls in the conversation's workspace folder (denied without one); results persisted in call order. */
  async #runTools(calls: readonly ToolCall[], previous: AssistantMessage | null, specs: readonly ToolSpec[]): Promise<ToolResultMessage[] | 'aborted'> {
    const sessionId = this.#sessionId;
    const signal = this.#signal;
    const workspaceRoot = await this.#deps.workspaceRoot(sessionId, signal);
    if (signal.aborted) return 'aborted';
    if (workspaceRoot === null) return this.#refuseAll(calls, 'denied', NO_WORKSPACE);
    return this.#deps.dispatcher.dispatch({
      sessionId,
      workspaceRoot,
      calls,
      specs,
      previousCalls: previous ? toolCallsOf(previous) : [],
      signal,
      onStart: (call) => this.#run.emit({ type: 'tool_execution_start', toolCallId: call.id, toolName: call.name, args: call.arguments }),
      onUpdate: (call, text) => this.#run.emit({ type: 'tool_execution_update', toolCallId: call.id, text }),
      onResult: (result) => this.#persistResult(result),
      hooks: this.#hooks,
    });
  }

  /** The silent confirm turn (see confirm-turn.ts): true when the run may end. */
  #confirmFinished(setup: TurnSetup): Promise<boolean> {
    this.#run.emit({ type: 'confirm_start' });
    return confirmTurn({
      stream: setup.provider.stream,
      model: setup.provider.model,
      provider: setup.ref.provider,
      systemPrompt: setup.systemPrompt,
      messages: maskToolOutput(this.#context.current(), this.#deps.masking?.() ?? DEFAULT_MASKING).messages,
      signal: this.#signal,
      clock: this.#deps.clock,
      append: (input) => void this.#append(input),
      onNotice: (message) => this.#notice('provider_notice', message),
      onContinue: () => this.#notice('confirm_continue', 'The model said the task is not finished, so it goes on.'),
    });
  }

  /** Summarises the older part of the context (see compactor.ts); false, with a notice, when it could not. */
  async #compact(provider: ResolvedProvider, why: string): Promise<boolean> {
    const context = this.#context.current();
    // The same model the turn resolved (see #setUp): the summary's usage is recorded under its provider.
    const ref = context.model ?? this.#deps.defaultModel;
    const outcome = await compactSession({
      store: this.#deps.store,
      sessionId: this.#sessionId,
      context,
      stream: provider.stream,
      model: provider.model,
      ...(ref ? { provider: ref.provider } : {}),
      keepRecentTokens: this.#deps.compaction.keepRecentTokens,
      strategy: this.#deps.compaction.strategy,
      ...(this.#deps.keepShare ? { keepShare: this.#deps.keepShare() } : {}),
      signal: this.#signal,
      clock: this.#deps.clock,
    });
    if (outcome.ok) {
      this.#context.forget();
      this.#run.emit({ type: 'entry_appended', entry: outcome.entry });
      if (outcome.memories.length > 0) this.#deps.onMemories?.({ sessionId: this.#sessionId, entryId: outcome.entry.id, memories: outcome.memories });
      if (outcome.fallback !== undefined) {
        this.#notice('compaction_fallback', `The older messages were summarised in one request, not classified and kept: ${outcome.fallback}`);
      }
      return true;
    }
    // The model refused the context and nothing older can be summarised: the newest messages alone are too long for it.
    const advice =
      outcome.nothingOlder && why === OVERFLOW_REASON
        ? ` The newest messages alone are too long for ${provider.model.id}: shorten the message, or pick a model with a larger context window.`
        : '';
    this.#notice('compaction_failed', `The conversation could not be summarised (${why}); it was left as it was. ${outcome.reason}${advice}`);
    return false;
  }

  // ── writes ──────────────────────────────────────────────────────────────

  /** Every entry of the run is written here: the store, then the run's context. */
  #write(input: EntryInput): Entry {
    const entry = this.#deps.store.append(this.#sessionId, input);
    this.#context.appended(entry);
    return entry;
  }

  #append(input: EntryInput): Entry {
    const entry = this.#write(input);
    this.#run.emit({ type: 'entry_appended', entry });
    return entry;
  }

  /** `ref`: the turn's model, whose account the entry records (the message's provider is the server's kind). */
  #persistReply(message: AssistantMessage, ref: ModelRef | null, sources: readonly ReplySource[] = []): Entry {
    // On the entry beside the message, so that building a context (which sends messages) never carries them.
    const entry = this.#write({
      type: 'message',
      message,
      ...(ref ? { accountId: ref.provider } : {}),
      ...(sources.length > 0 ? { sources: [...sources] } : {}),
    });
    this.#run.emit({ type: 'message_end', entry });
    return entry;
  }

  #persistResult(result: ToolResultMessage): void {
    const entry = this.#write({ type: 'message', message: result });
    this.#run.emit({ type: 'tool_execution_end', toolCallId: result.toolCallId, status: result.status ?? (result.isError ? 'error' : 'ok'), entry });
  }

  /** A turn that fails before the model is called still leaves a persisted error reply (out of later context). */
  #failTurn(ref: ModelRef | null, text: string): LoopEnd {
    this.#run.emit({ type: 'message_start', role: 'assistant' });
    const message: AssistantMessage = { role: 'assistant', content: [], stopReason: 'error', errorMessage: text, timestamp: this.#deps.clock() };
    if (ref) Object.assign(message, { provider: ref.provider, model: ref.modelId });
    this.#persistReply(message, ref);
    return { reason: 'error', error: text };
  }

  /** Calls refused wholesale (a recovery stop, a length stop) still get one result each, in order. */
  #refuseAll(calls: readonly ToolCall[], status: 'error' | 'denied', text: string): ToolResultMessage[] {
    return calls.map((call) => {
      this.#run.emit({ type: 'tool_execution_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
      const result = toolResult(call, status, text, this.#deps.clock());
      this.#persistResult(result);
      return result;
    });
  }

  /** Steering and follow-up messages, through the input hooks like the run's first; how many were stored. */
  async #appendUserMessages(contents: readonly PromptContent[]): Promise<number> {
    let stored = 0;
    for (const raw of contents) {
      const input = await applyInputHooks(this.#hooks, this.#sessionId, raw);
      if (input.swallowed !== undefined) {
        this.#notice('input_handled', input.swallowed);
        continue;
      }
      this.#append({ type: 'message', message: { role: 'user', content: input.content, timestamp: this.#deps.clock() } });
      stored++;
    }
    return stored;
  }

  #notice(code: string, message: string): void {
    this.#run.emit({ type: 'notice', code, message });
  }
}

/** The same tool specs, in the same order (the registry hands out the same spec objects while nothing changes). */
function sameSpecs(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && a.every((spec, i) => spec === b[i]);
}

/**
 * The assistant turn just before this one, when only its tool results came after it. Once anyone else has
 * spoken (the user, a steer), repeating a call is a new request, not a loop.
 */
function previousToolTurn(messages: readonly Message[]): AssistantMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (isAssistant(m)) return m;
    if (!isToolResult(m)) return null;
  }
  return null;
}
