import { setTimeout as delay } from 'node:timers/promises';
import type { AgentEvent } from '../../shared/agent/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { type SubagentSettings, TASK_TOOL_NAME, TaskArgs, type SubagentTranscript, type SubagentView } from '../../shared/subagents/index.ts';
import { AmberError } from '../errors.ts';
import type { ToolOutput, ToolSpec } from '../../shared/tools/index.ts';
import type { ModelRef, ToolExecution, ToolSource } from '../agent/index.ts';
import type { ApprovalChange } from '../policy/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { type AgentCatalog, DEFAULT_AGENT, generalOnly, type SubagentKind } from './agent-catalog.ts';
import { ChildRun, type ChildOutcome, type ChildRunDeps } from './child-run.ts';
import { notStarted, taskResult } from './task-result.ts';

/** What a call of the task tool reads while it is switched off. */
export const SUBAGENTS_OFF =
  'The task tool is off, so no child agent was started. The user can switch it on in Settings or with /set agent.subagents on; do the work yourself meanwhile.';

/** The most entries a child's read-only transcript carries. */
const TRANSCRIPT_LIMIT = 5000;

/** How long Stop waits for the children to end before the task call returns what it has. */
export const STOP_GRACE_MS = 1500;

export interface SubagentServiceOptions
  extends Pick<ChildRunDeps, 'store' | 'resolveProvider' | 'gate' | 'systemPrompt' | 'hooks' | 'toolOutputs' | 'masking'> {
  store: SessionStore;
  settings: SettingsService;
  /** The tools children may use: the parent's, without the task tool. */
  tools: ToolSource;
  /** The kinds of child; default: general only. */
  agents?: AgentCatalog;
  /** The system message of the parent's last model request (see ChildRunDeps.parentPrompt). Default: none. */
  parentPrompt?: (parentSessionId: string) => string | null;
  /** The parent conversation's model, for a kind that names none. */
  parentModel: (parentSessionId: string) => ModelRef | null;
  /** Every event of every child's run, with its parent conversation (the budget plugin counts their spend). Must not throw. */
  onChildEvent?: (event: AgentEvent, parentSessionId: string) => void;
  clock?: () => number;
  stopGraceMs?: number;
  /** The approval questions put to the user and settled: a child's row says when one of its calls waits for an answer. */
  questions?: Event<ApprovalChange>;
  /** How long the wall-time setting's minute is (a test's seam). Default: 60,000 ms. */
  minuteMs?: number;
}

interface TaskCall {
  parentSessionId: string;
  toolCallId: string;
  children: ChildRun[];
}

/**
 * The task tool and the child agents it starts. Limits (at once, per message, iterations, wall time, tokens)
 * are checked before a child starts: a refused task comes back as its own result naming the limit. Results
 * come back whole, in task order, whatever became of the siblings; Stop on the parent ends every child
 * within about STOP_GRACE_MS and keeps what they had.
 */
export class SubagentService {
  readonly #options: SubagentServiceOptions;
  readonly #agents: AgentCatalog;
  readonly #clock: () => number;
  readonly #calls = new Set<TaskCall>();
  /** Children started since each parent's run began (maxPerTurn), and running now (maxParallel). */
  readonly #startedThisTurn = new Map<string, number>();
  readonly #running = new Map<string, number>();
  readonly #changed = new Emitter<SubagentView>();
  readonly #forgetChildren: Disposable;
  readonly #followQuestions: Disposable | undefined;
  /** A child's row changed: started, a turn, a tool call, its spend, its end. */
  readonly onDidChange: Event<SubagentView> = this.#changed.event;
  #spec: { text: string; spec: ToolSpec } | null = null;
  #disposed = false;

  /** The task tool, to compose with the plugins' tools: listed only while switched on. */
  readonly tools: ToolSource;

  constructor(options: SubagentServiceOptions) {
    this.#options = options;
    this.#agents = options.agents ?? generalOnly;
    this.#clock = options.clock ?? Date.now;
    // A conversation deleted takes its children's conversations with it (the database forgets at once; its
    // task results keep what they answered).
    this.#followQuestions = options.questions?.((change) => {
      for (const call of this.#calls) for (const child of call.children) child.questionChanged(change);
    });
    this.#forgetChildren = options.store.onDidDelete(({ sessionId }) => {
      for (const child of options.store.childSessions(sessionId)) {
        try {
          options.store.delete(child);
        } catch {
          // One that cannot be deleted now stays, out of the list, until its parent's next deletion attempt.
        }
      }
    });
    this.tools = {
      list: async () => (this.enabled() ? [await this.#taskSpec()] : []),
      execute: (name, args, execution) => {
        if (name !== TASK_TOOL_NAME) throw new Error(`There is no tool named ${name}.`);
        return this.runTask(args, execution);
      },
      answersStop: (name) => name === TASK_TOOL_NAME,
    };
  }

  /** A run of the parent conversation began (a message of the user's): maxPerTurn counts afresh. */
  runStarted(parentSessionId: string): void {
    this.#startedThisTurn.delete(parentSessionId);
  }

  /** The switch and the limits, as Settings shows them. */
  settings(): SubagentSettings {
    const s = this.#options.settings;
    return {
      enabled: s.get('agent.subagents'),
      maxParallel: s.get('agent.subagents.maxParallel'),
      maxPerTurn: s.get('agent.subagents.maxPerTurn'),
      maxIterations: s.get('agent.subagents.maxIterations'),
      wallTimeMinutes: s.get('agent.subagents.wallTimeMinutes'),
      budgetTokens: s.get('agent.subagents.budgetTokens'),
    };
  }

  /** Changes what is given of the switch and the limits; the next task call reads them. */
  setSettings(changes: Partial<SubagentSettings>): SubagentSettings {
    const s = this.#options.settings;
    if (changes.enabled !== undefined) s.set('agent.subagents', changes.enabled);
    if (changes.maxParallel !== undefined) s.set('agent.subagents.maxParallel', changes.maxParallel);
    if (changes.maxPerTurn !== undefined) s.set('agent.subagents.maxPerTurn', changes.maxPerTurn);
    if (changes.maxIterations !== undefined) s.set('agent.subagents.maxIterations', changes.maxIterations);
    if (changes.wallTimeMinutes !== undefined) s.set('agent.subagents.wallTimeMinutes', changes.wallTimeMinutes);
    if (changes.budgetTokens !== undefined) s.set('agent.subagents.budgetTokens', changes.budgetTokens);
    return this.settings();
  }

  enabled(): boolean {
    return this.#options.settings.get('agent.subagents') === true;
  }

  /** The children of a conversation's task calls that are going now, in task order. */
  views(parentSessionId: string): SubagentView[] {
    return [...this.#calls].filter((c) => c.parentSessionId === parentSessionId).flatMap((c) => c.children.map((child) => child.view));
  }

  /** The children of one task call while it is going, in task order; none once it has returned. */
  viewsOfCall(toolCallId: string): SubagentView[] {
    return [...this.#calls].filter((c) => c.toolCallId === toolCallId).flatMap((c) => c.children.map((child) => child.view));
  }

  /** Stops one running child (its row's Stop); its siblings go on. False: no such child is running. */
  stop(childSessionId: string): boolean {
    for (const call of this.#calls) {
      const child = call.children.find((c) => c.childSessionId === childSessionId && c.view.state === 'running');
      if (child) {
        child.stop('stopped', 'The user stopped it.');
        return true;
      }
    }
    return false;
  }

  /** Whether a child agent of this process is running in this conversation (its appends are not the window's leaf moves). */
  isRunningChild(sessionId: string): boolean {
    for (const call of this.#calls) if (call.children.some((c) => c.childSessionId === sessionId && c.view.state === 'running')) return true;
    return false;
  }

  /** A child agent's conversation, read-only: every entry (branches included) in creation order. */
  transcript(childSessionId: string): SubagentTranscript {
    const { store } = this.#options;
    const session = store.get(childSessionId);
    if (!session.parent) throw new AmberError('not_found', 'That conversation is not a child agent’s.');
    const entries = store
      .tree(childSessionId)
      .slice(0, TRANSCRIPT_LIMIT)
      .map((node) => store.entry(childSessionId, node.id));
    return { session, entries, leafId: store.leaf(childSessionId) };
  }

  /** Runs one task call to its end (see the class). Never throws: every problem is a result the model reads. */
  async runTask(args: unknown, execution: ToolExecution): Promise<ToolOutput> {
    if (!this.enabled()) return { content: [{ type: 'text', text: SUBAGENTS_OFF }], isError: true };
    if (this.#disposed) return { content: [{ type: 'text', text: 'Amber is shutting down, so no child agent was started.' }], isError: true };
    const parsed = TaskArgs.safeParse(args);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
      return { content: [{ type: 'text', text: `The task arguments are not valid (${why}). Fix them and call task again.` }], isError: true };
    }
    const { tasks, mode } = parsed.data;
    const parentSessionId = execution.sessionId;
    const call: TaskCall = { parentSessionId, toolCallId: execution.toolCallId, children: [] };
    const settings = this.#options.settings;
    const limits = {
      maxParallel: settings.get('agent.subagents.maxParallel'),
      maxPerTurn: settings.get('agent.subagents.maxPerTurn'),
      maxIterations: settings.get('agent.subagents.maxIterations'),
      wallMs: settings.get('agent.subagents.wallTimeMinutes') * (this.#options.minuteMs ?? 60_000),
      budgetTokens: settings.get('agent.subagents.budgetTokens') || null,
    };
    const kinds = await Promise.all(tasks.map((t) => this.#agents.get(t.agent ?? DEFAULT_AGENT, execution.workspaceRoot).catch(() => undefined)));
    const known = kinds.some((k) => k === undefined) ? (await this.#agents.list(execution.workspaceRoot).catch(() => [])).map((k) => k.name) : [];
    const parentModel = this.#options.parentModel(parentSessionId);
    const outcomes: (ChildOutcome | (Promise<ChildOutcome> & { child: ChildRun }))[] = [];
    const views = tasks.map(
      (t, index): SubagentView => ({
        parentSessionId,
        toolCallId: execution.toolCallId,
        index,
        childSessionId: null,
        description: t.description,
        agent: t.agent ?? DEFAULT_AGENT,
        state: 'queued',
        turns: 0,
        toolCalls: 0,
        tokens: 0,
        outputTokens: 0,
        cost: 0,
        asking: false,
        startedAt: null,
        elapsedMs: 0,
      }),
    );
    this.#calls.add(call);
    const stopAll = () => {
      for (const child of call.children) child.stop('stopped', 'The run was stopped; this is what it had.');
    };
    execution.signal.addEventListener('abort', stopAll, { once: true });
    try {
      for (const [index, task] of tasks.entries()) {
        const view = views[index]!;
        const kind = kinds[index];
        if (execution.signal.aborted) {
          outcomes.push(notStarted(view, 'stopped', 'The run was stopped before it started.'));
          continue;
        }
        const refusal =
          kind === undefined
            ? `There is no agent named ${view.agent}${known.length > 0 ? `; the agents are ${known.join(', ')}` : ''}.`
            : this.#refusal(parentSessionId, limits);
        if (refusal !== null || kind === undefined) {
          const outcome = notStarted(view, 'refused', refusal ?? '');
          this.#tell(outcome.view);
          outcomes.push(outcome);
          continue;
        }
        const running = this.#start(call, view, {
          parentSessionId,
          toolCallId: execution.toolCallId,
          index,
          description: task.description,
          prompt: task.prompt,
          kind,
          workspaceRoot: execution.workspaceRoot,
          model: kindModel(kind) ?? parentModel,
          maxIterations: Math.min(kind.maxIterations ?? limits.maxIterations, limits.maxIterations),
          wallMs: limits.wallMs,
          wallMinutes: settings.get('agent.subagents.wallTimeMinutes'),
          budgetTokens: limits.budgetTokens,
        });
        // Serial: each child ends before the next is checked and started.
        outcomes.push(mode === 'serial' ? await this.#boundedByStop(running, execution.signal) : running);
      }
      const settled: ChildOutcome[] = [];
      for (const outcome of outcomes) settled.push(outcome instanceof Promise ? await this.#boundedByStop(outcome, execution.signal) : outcome);
      return taskResult(mode, settled);
    } finally {
      execution.signal.removeEventListener('abort', stopAll);
      this.#calls.delete(call);
    }
  }

  /** Why a child may not start now, naming the limit; null: it may. */
  #refusal(parentSessionId: string, limits: { maxParallel: number; maxPerTurn: number }): string | null {
    const started = this.#startedThisTurn.get(parentSessionId) ?? 0;
    if (started >= limits.maxPerTurn) {
      return `Refused before it started: this message has already started ${started} child agents, the most one message may (agent.subagents.maxPerTurn).`;
    }
    const running = this.#running.get(parentSessionId) ?? 0;
    if (running >= limits.maxParallel) {
      return `Refused before it started: ${running} child agents already run at once in this conversation, the most allowed (agent.subagents.maxParallel). Run the rest in a later call, or serially.`;
    }
    return null;
  }

  #start(call: TaskCall, view: SubagentView, task: ConstructorParameters<typeof ChildRun>[1]): Promise<ChildOutcome> & { child: ChildRun } {
    const parent = task.parentSessionId;
    const o = this.#options;
    const child = new ChildRun(
      {
        store: o.store,
        resolveProvider: o.resolveProvider,
        tools: o.tools,
        gate: o.gate,
        systemPrompt: o.systemPrompt,
        parentPrompt: o.parentPrompt ?? (() => null),
        clock: this.#clock,
        ...(o.hooks ? { hooks: o.hooks } : {}),
        ...(o.toolOutputs ? { toolOutputs: o.toolOutputs } : {}),
        ...(o.masking ? { masking: o.masking } : {}),
        onChange: (changed) => this.#tell(changed),
        onEvent: (event) => o.onChildEvent?.(event, parent),
      },
      task,
      view,
    );
    call.children.push(child);
    this.#startedThisTurn.set(parent, (this.#startedThisTurn.get(parent) ?? 0) + 1);
    this.#running.set(parent, (this.#running.get(parent) ?? 0) + 1);
    // A child that cannot even start (its conversation not written) fails alone: its siblings still report.
    const done = child
      .run()
      .catch((e: unknown): ChildOutcome => child.unfinished(`It could not run: ${e instanceof Error ? e.message : String(e)}`, 'failed'))
      .finally(() => {
        const left = (this.#running.get(parent) ?? 1) - 1;
        if (left > 0) this.#running.set(parent, left);
        else this.#running.delete(parent);
      });
    return Object.assign(done, { child });
  }

  /**
   * The child's outcome; once the parent is stopped, at most the grace period later: a child that has not
   * ended by then counts as stopped with what it had (it still ends in the background).
   */
  async #boundedByStop(outcome: Promise<ChildOutcome> & { child: ChildRun }, signal: AbortSignal): Promise<ChildOutcome> {
    if (!signal.aborted) {
      const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      const first = await Promise.race([outcome, stopped.then(() => null)]);
      if (first !== null) return first;
    }
    const late = await Promise.race([outcome, delay(this.#options.stopGraceMs ?? STOP_GRACE_MS).then(() => null)]);
    return late ?? outcome.child.unfinished('The run was stopped; it had not ended when the results were returned.');
  }

  #tell(view: SubagentView): void {
    this.#changed.fire(view);
  }

  async #taskSpec(): Promise<ToolSpec> {
    const kinds = await this.#agents.list().catch((): readonly SubagentKind[] => []);
    const text = taskDescription(kinds);
    if (this.#spec?.text !== text) this.#spec = { text, spec: taskSpec(text) };
    return this.#spec.spec;
  }

  /** Stops every child and waits for their calls to return. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#forgetChildren.dispose();
    this.#followQuestions?.dispose();
    for (const call of this.#calls) for (const child of call.children) child.stop('stopped', 'Amber is shutting down.');
    this.#changed.dispose();
  }
}

function kindModel(kind: SubagentKind): ModelRef | null {
  return kind.model ? { provider: kind.model.provider, modelId: kind.model.id } : null;
}

function taskDescription(kinds: readonly SubagentKind[]): string {
  const agents = kinds.map((k) => `- ${k.name}: ${k.description}`).join('\n');
  return [
    'Hands self-contained pieces of work to child agents, each in a fresh context of its own, and returns each one’s final reply in task order.',
    'Use it for broad searches or independent subtasks whose intermediate output would fill your context. A child sees nothing of this conversation: put everything it needs in its prompt.',
    'mode "parallel" runs the tasks at once, "serial" one after another. A child cannot start children of its own.',
    agents !== '' ? `Agents (the optional "agent" of a task; default ${DEFAULT_AGENT}):\n${agents}` : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

function taskSpec(description: string): ToolSpec {
  return {
    name: TASK_TOOL_NAME,
    description,
    parameters: {
      type: 'object',
      properties: {
        tasks: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              description: { type: 'string', description: 'A few words shown to the user.' },
              prompt: { type: 'string', description: 'The whole task, with everything the child needs to know.' },
              agent: { type: 'string', description: 'The agent to run (default general).' },
            },
            required: ['description', 'prompt'],
          },
        },
        mode: { type: 'string', enum: ['serial', 'parallel'] },
      },
      required: ['tasks'],
    },
    // The children's own calls are judged by the policy one by one: starting them needs no question.
    readOnly: true,
  };
}
