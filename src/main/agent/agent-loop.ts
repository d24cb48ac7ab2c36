import { type AgentEndReason, type AgentEvent, thinkingLevelOf } from '../../shared/agent/index.ts';
import type { ModelInfo, StreamFn } from '../../shared/providers/index.ts';
import { type AssistantMessage, contentText, type Entry, type EntryInput, isAssistant, isToolResult, type Message, type ModelContext, type ToolCall, type ToolResultMessage, type UserMessage } from '../../shared/sessions/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { errorMessage } from '../errors.ts';
import type { SessionStore } from '../sessions/index.ts';
import { type AgentHooks, applyInputHooks, noHooks, type RunHooks } from './agent-hooks.ts';
import { compactSession, type CompactionSettings } from './compactor.ts';
import { estimateContextTokens, estimateTextTokens } from './context-tokens.ts';
import { assemblePrompt, type PromptBlock } from './prompt-assembly.ts';
import { RecoveryMonitor, toolCallsOf, type RecoveryAction, type RecoveryLimits } from './recovery-monitor.ts';
import { streamReply, type StreamedReply } from './stream-reply.ts';
import { toolResult, type ToolDispatcher, type ToolSource } from './tool-dispatcher.ts';

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

/** What a tool call reads when its conversation has no workspace folder and none was chosen. */
export const NO_WORKSPACE =
  'Not run: this conversation has no workspace folder, and none was chosen when asked. The user can choose one with the folder button at the top of the conversation or /workspace PATH; tell them so.';

/** The system message and tools of one model request, as sent. */
export interface SentPrompt {
  sessionId: string;
  systemPrompt: string;
  tools: ToolSpec[];
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

const RECOVERY_STEER_TYPE = 'amber.recovery';
/** Messages a plugin's before_agent_start hook added: sent to the model, not shown. */
export const HOOK_MESSAGE_TYPE = 'amber.hook';
/** A confirm turn's question and answer: a custom entry, so never sent to the model again and never shown. */
export const CONFIRM_TURN_TYPE = 'amber.confirm';
/** The hidden nudge that starts the turn after a "continue" answer (sent to the model, not shown). */
export const CONFIRM_CONTINUE_TYPE = 'amber.confirm.continue';
export const CONFIRM_QUESTION =
  'Is the task the user asked for finished? Answer with exactly one word: "done" if it is finished (or you are waiting for the user), "continue" if there is more you should do now.';
export const CONFIRM_CONTINUE = 'The task is not finished yet: continue with the next step.';

/** "continue" (any case, with or without punctuation or quotes) continues; anything else counts as done. */
export function confirmAnswer(text: string): 'done' | 'continue' {
  return text.trim().toLowerCase().replace(/^["'`*\s]+|["'`*.!\s]+$/g, '') === 'continue' ? 'continue' : 'done';
}

/**
 * One run of the loop over a session whose prompt is already persisted: turn after turn (context →
 * compaction gate → prompt → stream → persist reply → tools → persist results) until a reply has no
 * tool calls and nothing is queued, or an error, an abort, a recovery stop or the iteration limit.
 * Every model-visible write goes through the store before the next step reads the context again.
 */
export async function runAgentLoop(deps: LoopDeps, run: RunHandle): Promise<LoopEnd> {
  const { store, clock } = deps;
  const { sessionId, signal } = run;
  const recovery = new RecoveryMonitor(deps.recovery);
  const confirm = deps.confirm ?? { enabled: true, max: 2 };
  let usedTools = false;
  let toldNoThinking = false;
  let confirms = 0;
  let builtPrompt: { specs: readonly ToolSpec[]; text: string } | null = null;

  const append = (input: EntryInput): Entry => {
    const entry = store.append(sessionId, input);
    run.emit({ type: 'entry_appended', entry });
    return entry;
  };
  const notice = (code: string, message: string): void => run.emit({ type: 'notice', code, message });
  const hooks: RunHooks = { hooks: deps.hooks ?? noHooks, onError: (failure) => run.emit({ type: 'extension_error', ...failure }) };
  /** What before_agent_start hooks add to every system prompt of this run. */
  let hookSystemPrompt = '';

  const persistReply = (message: AssistantMessage): Entry => {
    const entry = store.append(sessionId, { type: 'message', message });
    run.emit({ type: 'message_end', entry });
    return entry;
  };

  /** A turn that fails before the model is called still leaves a persisted error reply (out of later context). */
  const failTurn = (ref: ModelRef | null, text: string): LoopEnd => {
    run.emit({ type: 'message_start', role: 'assistant' });
    const message: AssistantMessage = { role: 'assistant', content: [], stopReason: 'error', errorMessage: text, timestamp: clock() };
    if (ref) Object.assign(message, { provider: ref.provider, model: ref.modelId });
    persistReply(message);
    return { reason: 'error', error: text };
  };

  const persistResult = (result: ToolResultMessage): void => {
    const entry = store.append(sessionId, { type: 'message', message: result });
    run.emit({ type: 'tool_execution_end', toolCallId: result.toolCallId, status: result.status ?? (result.isError ? 'error' : 'ok'), entry });
  };

  /** Calls refused wholesale (a recovery stop, a length stop) still get one result each, in order. */
  const refuseAll = (calls: readonly ToolCall[], status: 'error' | 'denied', text: string): ToolResultMessage[] =>
    calls.map((call) => {
      run.emit({ type: 'tool_execution_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
      const result = toolResult(call, status, text, clock());
      persistResult(result);
      return result;
    });

  const compact = async (context: ModelContext, provider: ResolvedProvider, why: string): Promise<boolean> => {
    const outcome = await compactSession({
      store,
      sessionId,
      context,
      stream: provider.stream,
      model: provider.model,
      keepRecentTokens: deps.compaction.keepRecentTokens,
      signal,
    });
    if (outcome.ok) {
      run.emit({ type: 'entry_appended', entry: outcome.entry });
      return true;
    }
    notice('compaction_failed', `The conversation could not be summarised (${why}); the session was left as it was. ${outcome.reason}`);
    return false;
  };

  const callModel = async (context: ModelContext, provider: ResolvedProvider, ref: ModelRef, specs: readonly ToolSpec[], systemPrompt: string): Promise<StreamedReply> => {
    // The context hooks rewrite this request's messages only: the stored session stays as it is.
    const hooked = await hooks.hooks.run('context', { sessionId, messages: [...context.messages] }, hooks);
    const assembled = await assemblePrompt({
      systemPrompt,
      blocks: deps.promptBlocks(),
      messages: hooked.payload.messages,
      context: { sessionId, signal },
      ...(deps.renderTimeoutMs !== undefined ? { renderTimeoutMs: deps.renderTimeoutMs } : {}),
    });
    for (const f of assembled.failures) notice('prompt_block_failed', `The prompt block ${f.blockId} was left out of this turn: ${f.error}`);
    try {
      deps.onRequest?.({ sessionId, systemPrompt: assembled.systemPrompt, tools: [...specs], at: clock() });
    } catch {
      // Recording what was sent must never break the turn.
    }
    run.emit({ type: 'message_start', role: 'assistant' });
    return streamReply({
      stream: provider.stream,
      request: { model: provider.model, systemPrompt: assembled.systemPrompt, messages: assembled.messages, tools: [...specs], thinkingLevel: context.thinkingLevel },
      signal,
      provider: ref.provider,
      clock,
      onDelta: (delta) => run.emit({ type: 'message_update', delta }),
      onNotice: (message) => notice('provider_notice', message),
    });
  };

  const oneTurn = async (): Promise<LoopEnd | 'continue'> => {
    let context = store.context(sessionId);
    // A session changed outside Amber is read-only: nothing of it is sent to a model.
    if (!context.integrity.ok) {
      return { reason: 'error', error: `This session was changed outside Amber (entries ${context.integrity.changed.join(', ')}), so it is read-only; start a new session to continue.` };
    }
    const ref = context.model ?? deps.defaultModel;
    if (!ref) return failTurn(null, 'No model is chosen for this session. Pick a model, then send again.');
    let provider: ResolvedProvider;
    try {
      provider = await deps.resolveProvider(ref);
    } catch (e) {
      return failTurn(ref, `The model ${ref.provider}/${ref.modelId} is not available: ${errorMessage(e)}`);
    }
    const level = thinkingLevelOf(context.thinkingLevel);
    if (level !== 'off' && !provider.model.reasoning && !toldNoThinking) {
      toldNoThinking = true;
      notice('thinking_unsupported', `${ref.modelId} does not think before answering, so the thinking level (${level}) is not sent to it.`);
    }
    let specs: readonly ToolSpec[] = [];
    try {
      specs = await deps.tools.list();
    } catch (e) {
      notice('tools_unavailable', `The tools could not be listed, so this turn has none: ${errorMessage(e)}`);
    }
    let systemPrompt = '';
    // Built once a run for the same tools: it reads the project's instruction files, a cost per turn otherwise.
    if (builtPrompt && sameSpecs(builtPrompt.specs, specs)) systemPrompt = builtPrompt.text;
    else {
      try {
        systemPrompt = await deps.systemPrompt(sessionId, specs);
        builtPrompt = { specs, text: systemPrompt };
      } catch (e) {
        notice('prompt_block_failed', `The system prompt could not be built and was left out of this turn: ${errorMessage(e)}`);
      }
    }
    if (hookSystemPrompt !== '') systemPrompt = systemPrompt === '' ? hookSystemPrompt : `${systemPrompt}\n\n${hookSystemPrompt}`;

    if (deps.compaction.enabled) {
      const overhead = estimateTextTokens(systemPrompt + JSON.stringify(specs));
      if (estimateContextTokens(context, overhead) > deps.compaction.threshold * provider.model.contextWindow) {
        if (await compact(context, provider, 'the context is nearly full')) context = store.context(sessionId);
      }
    }
    if (signal.aborted) return { reason: 'aborted' };

    let overflowRetried = false;
    for (;;) {
      const reply = await callModel(context, provider, ref, specs, systemPrompt);
      if (reply.errorKind === 'context_overflow' && !overflowRetried && !signal.aborted) {
        overflowRetried = true;
        persistReply(reply.message);
        context = store.context(sessionId); // the failed reply is the leaf now, and stays out of the context
        if (!(await compact(context, provider, 'the model said the context is too long'))) {
          return { reason: signal.aborted ? 'aborted' : 'error', error: reply.message.errorMessage ?? 'The conversation is too long for the model.' };
        }
        context = store.context(sessionId);
        continue;
      }
      persistReply(reply.message);
      if (reply.errorKind === null && reply.message.stopReason !== 'length' && toolCallsOf(reply.message).length > 0 && !signal.aborted) {
        try {
          provider.prepare?.();
        } catch {
          // Preparing is an optimisation: the next call does what it needs on its own.
        }
      }
      if (reply.message.stopReason === 'aborted' || reply.errorKind === 'aborted') return { reason: 'aborted' };
      if (reply.errorKind !== null) {
        return { reason: reply.errorKind === 'blocked' ? 'blocked' : 'error', error: reply.message.errorMessage ?? 'The model call failed.' };
      }
      const next = await afterReply(reply.message, context.messages, specs);
      if (typeof next === 'object' && next.reason === 'stop' && usedTools && confirm.enabled && confirms < confirm.max) {
        confirms++;
        return (await confirmFinished(provider, ref, systemPrompt)) ? next : 'continue';
      }
      return next;
    }
  };

  /**
   * Asks the model, without tools and without showing anything, whether the task is finished. The question
   * and answer are kept as a custom entry (never sent again); "continue" appends a hidden nudge that the
   * next turn sends. A failed or stopped call counts as done.
   */
  const confirmFinished = async (provider: ResolvedProvider, ref: ModelRef, systemPrompt: string): Promise<boolean> => {
    const context = store.context(sessionId);
    const reply = await streamReply({
      stream: provider.stream,
      request: { model: provider.model, systemPrompt, messages: [...context.messages, { role: 'user', content: CONFIRM_QUESTION, timestamp: clock() }], tools: [], thinkingLevel: null },
      signal,
      provider: ref.provider,
      clock,
      onDelta: () => {},
      onNotice: (message) => notice('provider_notice', message),
    });
    const text = contentText(reply.message.content);
    const answer = reply.errorKind === null ? confirmAnswer(text) : 'done';
    append({
      type: 'custom',
      customType: CONFIRM_TURN_TYPE,
      data: { question: CONFIRM_QUESTION, answer, reply: text.slice(0, 200), ...(reply.message.usage ? { usage: reply.message.usage } : {}), ...(reply.errorKind ? { error: reply.errorKind } : {}) },
    });
    if (answer === 'done' || signal.aborted) return true;
    notice('confirm_continue', 'The model said the task is not finished, so it goes on.');
    append({ type: 'custom_message', customType: CONFIRM_CONTINUE_TYPE, content: CONFIRM_CONTINUE, display: false });
    return false;
  };

  /** Steering and follow-up messages, through the input hooks like the run's first; how many were stored. */
  const appendUserMessages = async (contents: readonly PromptContent[]): Promise<number> => {
    let stored = 0;
    for (const raw of contents) {
      const input = await applyInputHooks(hooks, sessionId, raw);
      if (input.swallowed !== undefined) {
        notice('input_handled', input.swallowed);
        continue;
      }
      append({ type: 'message', message: { role: 'user', content: input.content, timestamp: clock() } });
      stored++;
    }
    return stored;
  };

  const afterReply = async (message: AssistantMessage, before: readonly Message[], specs: readonly ToolSpec[]): Promise<LoopEnd | 'continue'> => {
    const calls = toolCallsOf(message);
    const judged = recovery.onReply(message);
    const stop = judged.find((a): a is Extract<RecoveryAction, { kind: 'stop' }> => a.kind === 'stop');
    if (stop) {
      refuseAll(calls, 'denied', `Not run: ${stop.message}`);
      return { reason: stop.reason, error: stop.message };
    }
    let results: ToolResultMessage[] = [];
    if (calls.length > 0 && message.stopReason === 'length') {
      results = refuseAll(
        calls,
        'error',
        'Not run: your reply was cut off at the output limit, so this call may be incomplete. Make the call again with complete arguments, or split the work into smaller steps.',
      );
    } else if (calls.length > 0) {
      usedTools = true;
      const previous = previousToolTurn(before);
      const workspaceRoot = await deps.workspaceRoot(sessionId, signal);
      if (signal.aborted) return { reason: 'aborted' };
      results =
        workspaceRoot === null
          ? refuseAll(calls, 'denied', NO_WORKSPACE)
          : await deps.dispatcher.dispatch({
              sessionId,
              workspaceRoot,
              calls,
              specs,
              previousCalls: previous ? toolCallsOf(previous) : [],
              signal,
              onStart: (call) => run.emit({ type: 'tool_execution_start', toolCallId: call.id, toolName: call.name, args: call.arguments }),
              onUpdate: (call, text) => run.emit({ type: 'tool_execution_update', toolCallId: call.id, text }),
              onResult: (result) => persistResult(result),
              hooks,
            });
    }
    if (signal.aborted) return { reason: 'aborted' };
    const afterTools = recovery.onResults(results);
    if (afterTools?.kind === 'stop') return { reason: afterTools.reason, error: afterTools.message };

    const steers = [...judged, ...(afterTools ? [afterTools] : [])].filter((a): a is Extract<RecoveryAction, { kind: 'steer' }> => a.kind === 'steer');
    for (const steer of steers) {
      append({ type: 'custom_message', customType: RECOVERY_STEER_TYPE, content: steer.text, display: true });
      notice('recovery_steer', steer.text);
    }
    const steering = await appendUserMessages(run.takeSteering());
    if (calls.length > 0 || steers.length > 0 || steering > 0) return 'continue';

    const followUps = await appendUserMessages(run.takeFollowUps());
    return followUps > 0 ? 'continue' : { reason: 'stop' };
  };

  const started = await hooks.hooks.run('before_agent_start', { sessionId, prompt: run.promptText ?? '', systemPrompt: '', messages: [] }, hooks);
  hookSystemPrompt = started.payload.systemPrompt;
  for (const content of started.payload.messages) append({ type: 'custom_message', customType: HOOK_MESSAGE_TYPE, content, display: false });

  for (let turn = 1; ; turn++) {
    if (signal.aborted) return { reason: 'aborted' };
    if (turn > deps.maxIterations) {
      return { reason: 'max_iterations', error: `The run stopped after ${deps.maxIterations} model calls without finishing; send a message to let it go on.` };
    }
    run.emit({ type: 'turn_start', turn });
    let outcome: LoopEnd | 'continue';
    try {
      outcome = await oneTurn();
    } finally {
      run.emit({ type: 'turn_end', turn });
    }
    if (outcome !== 'continue') return outcome;
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
