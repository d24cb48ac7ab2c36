import type { AgentEvent } from '../../shared/agent/index.ts';
import { contentText, isAssistant, type AssistantMessage } from '../../shared/sessions/index.ts';
import type { SubagentState, SubagentView } from '../../shared/subagents/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import {
  AgentService,
  type AgentHooks,
  type MaskingSettings,
  type ModelRef,
  type ProviderResolver,
  type ToolOutputKeeper,
  type ToolSource,
} from '../agent/index.ts';
import type { ApprovalChange, ToolGate } from '../policy/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import type { SubagentKind } from './agent-catalog.ts';
import { childTools } from './child-tools.ts';

/** Put after the parent's system message: what a child is and what its reply is for. */
export const CHILD_PREAMBLE =
  'You are a child agent: another agent handed you the task below. You cannot see its conversation and cannot ask the user questions; your final reply is all it will read, so make it complete.';

export interface ChildRunDeps {
  store: SessionStore;
  resolveProvider: ProviderResolver;
  /** The tools the parent may use, without the task tool. */
  tools: ToolSource;
  /** The parent conversation's tool policy. */
  gate: ToolGate;
  /** The system message of a conversation for these tools (the one the parent's runs are built with). */
  systemPrompt: (sessionId: string, tools: readonly ToolSpec[]) => string | Promise<string>;
  /** The system message the parent's last model request carried, so a child shares its prefix; null: none yet. */
  parentPrompt: (parentSessionId: string) => string | null;
  hooks?: AgentHooks;
  toolOutputs?: ToolOutputKeeper;
  /** Old tool output hidden from each request, as for the parent (the settings `context.mask*`). */
  masking?: () => MaskingSettings;
  clock: () => number;
  /** The child's view changed. Must not throw. */
  onChange(view: SubagentView): void;
  /** Every event of the child's run. Must not throw. */
  onEvent(event: AgentEvent): void;
}

export interface ChildTask {
  parentSessionId: string;
  toolCallId: string;
  index: number;
  description: string;
  prompt: string;
  kind: SubagentKind;
  workspaceRoot: string;
  /** The kind's model, else the parent's. */
  model: ModelRef | null;
  maxIterations: number;
  wallMs: number;
  /** The wall-time setting, in minutes, for the sentence that names it. */
  wallMinutes: number;
  /** Tokens in and out after which it is stopped; null: no limit. */
  budgetTokens: number | null;
}

export interface ChildOutcome {
  view: SubagentView;
  /** Its last reply's text ('' when it wrote none). */
  reply: string;
}

type Cause = { state: 'stopped' | 'timed_out' | 'failed'; reason: string };

/**
 * One child agent: a conversation of its own (linked to the task call, left out of the sessions list) run by
 * the same agent loop under the parent's workspace folder and tool policy (its questions carry its
 * description), with an iteration cap, a wall-time limit and a token budget. Whatever ends it, `done`
 * settles with its view and the reply it had.
 */
export class ChildRun {
  readonly #deps: ChildRunDeps;
  readonly #task: ChildTask;
  readonly #view: SubagentView;
  #service: AgentService | null = null;
  #cause: Cause | null = null;
  #ended = false;
  /** Its tool calls, and which of their questions wait for an answer. */
  readonly #calls = new Set<string>();
  readonly #asked = new Set<string>();

  constructor(deps: ChildRunDeps, task: ChildTask, view: SubagentView) {
    this.#deps = deps;
    this.#task = task;
    this.#view = view;
  }

  get view(): SubagentView {
    return this.#snapshot();
  }

  get childSessionId(): string | null {
    return this.#view.childSessionId;
  }

  /** What it had when the parent could wait no longer: stopped, with its reply so far. */
  unfinished(reason: string, state: 'stopped' | 'failed' = 'stopped'): ChildOutcome {
    const id = this.#view.childSessionId;
    let reply = '';
    try {
      if (id) reply = lastReply(this.#deps.store, id);
    } catch {
      // What it had cannot be read: the reason says what became of it.
    }
    return { view: { ...this.#snapshot(), state, reason }, reply };
  }

  /** A question was asked or settled: when it is about one of this child's calls, its row says it waits. */
  questionChanged(change: ApprovalChange): void {
    if (change.kind === 'requested') {
      const q = change.question;
      if (q.sessionId !== this.#task.parentSessionId || !this.#calls.has(q.toolCallId)) return;
      this.#asked.add(q.id);
    } else if (!this.#asked.delete(change.questionId)) return;
    const asking = this.#asked.size > 0;
    if (asking === this.#view.asking) return;
    this.#view.asking = asking;
    this.#changed();
  }

  /** Stops it (at most once: the first cause is the one reported). */
  stop(state: Cause['state'], reason: string): void {
    if (this.#ended) return;
    this.#cause ??= { state, reason };
    const id = this.#view.childSessionId;
    if (id) this.#service?.abort(id);
  }

  async run(): Promise<ChildOutcome> {
    const { store, clock } = this.#deps;
    const task = this.#task;
    const session = store.create({
      title: task.description,
      cwd: task.workspaceRoot,
      parent: { sessionId: task.parentSessionId, toolCallId: task.toolCallId },
    });
    const childId = session.id;
    Object.assign(this.#view, { childSessionId: childId, state: 'running', startedAt: clock() });
    const service = this.#serviceFor();
    this.#service = service;
    const listening = service.onDidEmit((event) => this.#heard(event));
    const timer = setTimeout(
      () =>
        this.stop(
          'timed_out',
          `It ran out of time after ${task.wallMinutes} ${task.wallMinutes === 1 ? 'minute' : 'minutes'} (agent.subagents.wallTimeMinutes).`,
        ),
      task.wallMs,
    );
    let ended: { reason: string; error?: string };
    try {
      this.#changed();
      // A stop that came before the run existed still ends it at once.
      const started = service.start(childId, task.prompt, task.model ? { model: task.model } : {});
      if (this.#cause) service.abort(childId);
      ended = await started.done;
    } catch (e) {
      ended = { reason: 'error', error: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
    this.#ended = true;
    listening.dispose();
    await service.dispose();
    this.#settle(ended);
    return { view: this.#snapshot(), reply: lastReply(store, childId) };
  }

  #serviceFor(): AgentService {
    const deps = this.#deps;
    const task = this.#task;
    const parentGate = deps.gate;
    // Asked as the parent conversation (its mode, rules, grants and sandbox), labelled with the child's description.
    const gate: ToolGate = {
      authorize: (request, signal) => parentGate.authorize({ ...request, sessionId: task.parentSessionId, label: task.description }, signal),
      sandboxUnavailable: (detail) => parentGate.sandboxUnavailable?.(detail),
    };
    const suffix = task.kind.prompt.trim() === '' ? CHILD_PREAMBLE : `${CHILD_PREAMBLE}\n\n${task.kind.prompt.trim()}`;
    return new AgentService({
      store: deps.store,
      resolveProvider: deps.resolveProvider,
      tools: childTools(deps.tools, task.kind),
      gate,
      // The parent's system message first, as sent (its prompt blocks included), so serial children keep the provider's prompt cache warm.
      systemPrompt: async (sessionId, tools) => `${deps.parentPrompt(task.parentSessionId) ?? (await deps.systemPrompt(sessionId, tools))}\n\n${suffix}`,
      promptBlocks: () => [],
      maxIterations: task.maxIterations,
      defaultModel: task.model,
      workspaceRoot: () => task.workspaceRoot,
      clock: deps.clock,
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
      ...(deps.toolOutputs ? { toolOutputs: deps.toolOutputs } : {}),
      ...(deps.masking ? { masking: deps.masking } : {}),
    });
  }

  #heard(event: AgentEvent): void {
    const view = this.#view;
    let changed = false;
    if (event.type === 'turn_start') {
      view.turns++;
      changed = true;
    } else if (event.type === 'tool_execution_start') {
      this.#calls.add(event.toolCallId);
      view.toolCalls++;
      changed = true;
    } else if (event.type === 'message_end' && event.entry.type === 'message' && isAssistant(event.entry.message)) {
      const usage = (event.entry.message as AssistantMessage).usage;
      if (usage) {
        view.tokens += (usage.input ?? 0) + (usage.output ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
        view.outputTokens += usage.output ?? 0;
        view.cost += usage.cost?.total ?? 0;
      }
      changed = true;
      const budget = this.#task.budgetTokens;
      if (budget !== null && view.tokens >= budget) {
        this.stop(
          'failed',
          `Its budget ran out: it used ${view.tokens.toLocaleString('en')} tokens of the ${budget.toLocaleString('en')} a child may (agent.subagents.budgetTokens).`,
        );
      }
    }
    try {
      this.#deps.onEvent(event);
    } catch {
      // a listener's failure must not break the child
    }
    if (changed) this.#changed();
  }

  #settle(ended: { reason: string; error?: string }): void {
    const view = this.#view;
    let state: SubagentState;
    let reason: string | undefined;
    if (this.#cause) ({ state, reason } = this.#cause);
    else if (ended.reason === 'stop') state = 'done';
    else if (ended.reason === 'aborted') {
      state = 'stopped';
      reason = 'It was stopped.';
    } else if (ended.reason === 'max_iterations') {
      state = 'failed';
      reason = `It reached the cap of ${this.#task.maxIterations} model calls without finishing (agent.subagents.maxIterations).`;
    } else {
      state = 'failed';
      reason = ended.error ?? `It ended with ${ended.reason}.`;
    }
    view.state = state;
    view.asking = false;
    if (reason !== undefined) view.reason = reason;
    view.elapsedMs = view.startedAt === null ? 0 : Math.max(0, this.#deps.clock() - view.startedAt);
    this.#changed();
  }

  #snapshot(): SubagentView {
    const view = this.#view;
    const elapsedMs = view.state === 'running' && view.startedAt !== null ? Math.max(0, this.#deps.clock() - view.startedAt) : view.elapsedMs;
    return { ...view, elapsedMs };
  }

  #changed(): void {
    try {
      this.#deps.onChange(this.#snapshot());
    } catch {
      // a listener's failure must not break the child
    }
  }
}

/** The text of the newest reply on the child's branch that has any (a stopped reply keeps what it had streamed). */
export function lastReply(store: SessionStore, sessionId: string): string {
  const path = store.path(sessionId);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type !== 'message' || !isAssistant(entry.message)) continue;
    const text = contentText(entry.message.content as Parameters<typeof contentText>[0]).trim();
    if (text !== '') return text;
  }
  return '';
}
