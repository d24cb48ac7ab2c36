import type { AgentEvent } from '../../shared/agent/index.ts';
import type { StatusBarView, StatusSegmentView } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { ModelInfo } from '../../shared/providers/index.ts';
import { type Entry, usageOf } from '../../shared/sessions/index.ts';
import { taskSpend } from '../../shared/subagents/index.ts';
import { estimateContextTokens, RunContext } from '../agent/index.ts';
import type { AgentService, ModelRef } from '../agent/index.ts';
import type { PluginService } from '../plugins/index.ts';
import type { SessionStore } from '../sessions/index.ts';

/** Core segments come before plugin segments (plugins use small priorities). */
const PRIORITY = { model: 1000, tokens: 990, cost: 980, context: 970 } as const;
/** How often a streaming run may tell the status bar to refresh. */
const STREAM_NOTIFY_MS = 150;
/**
 * A stored entry refreshes the bar at once, unless it was sent less than this long ago: then once at the
 * end of that time, for every entry stored meanwhile (a run stores several a turn, and a bar built for each
 * would build the session's context each time).
 */
export const ENTRY_NOTIFY_MS = 50;
const CONTEXT_WARNING = 0.8;

/** What the core segments need from a session's context, kept while its leaf stays where it is. */
interface ContextFacts {
  leafId: string | null;
  model: { provider: string; modelId: string } | null;
  entries: readonly Entry[];
  contextTokens: number;
}

interface LiveRun {
  /** Characters streamed into the reply being written, before its usage is known. */
  streamedChars: number;
}

/** What the status bar reads: the core's services, before the app around them is whole. */
export interface StatusSources {
  readonly sessions: SessionStore;
  readonly agent: AgentService;
  readonly plugins: PluginService;
  defaultModel(): ModelRef | null;
  modelInfo(ref: ModelRef): ModelInfo | null;
}

/**
 * The status bar's data: core segments (model, tokens in and out, cost, context use) computed from a
 * session's context and the runs' events, then the plugins' segments, highest priority first. Changes are
 * announced, at most every STREAM_NOTIFY_MS per session while a reply streams.
 */
export class StatusService implements Disposable {
  readonly #app: StatusSources;
  readonly #onDidChange = new Emitter<StatusBarView>();
  /**
   * Fires the new view when a session's segments changed: that session's whole bar; with sessionId null
   * (a plugin segment, every session's), the plugins' segments only, to lay beside each session's core ones.
   */
  readonly onDidChange: Event<StatusBarView> = this.#onDidChange.event;
  readonly #live = new Map<string, LiveRun>();
  /** Building a long session's context is not free; a streaming reply asks many times while the leaf stays put. */
  readonly #facts = new Map<string, ContextFacts>();
  /**
   * Each shown session's context, kept across a run's appends (told by its events) as the run keeps its own,
   * instead of built again at every bar: read from the store when the leaf is anywhere else.
   */
  readonly #contexts = new Map<string, RunContext>();
  readonly #timers = new Map<string, { due: number; timer: ReturnType<typeof setTimeout> }>();
  /** When each session's bar was last sent. */
  readonly #sentAt = new Map<string, number>();
  readonly #subscriptions = new DisposableStore();

  constructor(app: StatusSources) {
    this.#app = app;
    const registries = app.plugins.registries;
    this.#subscriptions.add(app.agent.onDidEmit((event) => this.#onAgentEvent(event)));
    this.#subscriptions.add(registries.statusSegments.onDidChange(() => this.#changed(null)));
    // A provider change can rename a session's model: every session shown so far gets its whole bar again.
    this.#subscriptions.add(
      registries.providers.onDidChange(() => {
        for (const sessionId of this.#facts.keys()) this.#changed(sessionId);
        this.#changed(null);
      }),
    );
    this.#subscriptions.add(toDisposable(() => this.#clearTimers()));
    this.#subscriptions.add(this.#onDidChange);
  }

  list(sessionId: string | null): StatusBarView {
    const core = sessionId ? this.#core(sessionId) : [];
    return { sessionId, segments: [...core, ...this.#pluginSegments()].sort((a, b) => b.priority - a.priority) };
  }

  dispose(): void {
    this.#subscriptions.dispose();
  }

  /** A plugin segment with nothing to say (empty text) is left out of the bar. */
  #pluginSegments(): StatusSegmentView[] {
    return this.#app.plugins.registries.statusSegments
      .list()
      .filter((s) => s.text.trim() !== '')
      .map((s) => ({
        id: s.id,
        text: s.text,
        ...(s.tooltip !== undefined ? { tooltip: s.tooltip } : {}),
        priority: s.priority,
        source: s.pluginId,
        tone: 'normal' as const,
      }));
  }

  /** Must not throw: it runs inside registry and agent listeners. Builds nothing while nobody listens. */
  #changed(sessionId: string | null): void {
    if (this.#onDidChange.listenerCount === 0) return;
    let view: StatusBarView;
    try {
      view = sessionId === null ? { sessionId: null, segments: this.#pluginSegments().sort((a, b) => b.priority - a.priority) } : this.list(sessionId);
    } catch {
      return;
    }
    this.#onDidChange.fire(view);
  }

  #core(sessionId: string): StatusSegmentView[] {
    const context = this.#contextFacts(sessionId);
    if (!context) return []; // a deleted session has no status
    // One bar asks for each reply's model: each model is described once per bar (a description reads the accounts).
    const described = new Map<string, ModelInfo | null>();
    const modelInfo = (provider: string, modelId: string): ModelInfo | null => {
      const key = `${provider}\u0000${modelId}`;
      if (!described.has(key)) described.set(key, this.#modelInfo(provider, modelId));
      return described.get(key)!;
    };
    const ref = context.model ?? this.#app.defaultModel();
    const info = ref ? modelInfo(ref.provider, ref.modelId) : null;
    const out: StatusSegmentView[] = [];
    out.push(
      ref
        ? {
            id: 'core.model',
            text: info?.name ?? ref.modelId,
            tooltip: `Model: ${ref.provider}/${ref.modelId}`,
            priority: PRIORITY.model,
            source: 'core',
            tone: 'normal',
          }
        : {
            id: 'core.model',
            text: 'no model',
            tooltip: 'No model is chosen: set up a provider, or use /model.',
            priority: PRIORITY.model,
            source: 'core',
            tone: 'warning',
          },
    );
    const totals = usageTotals(context.entries, info, modelInfo);
    const live = this.#live.get(sessionId);
    const streamedOut = live ? Math.ceil(live.streamedChars / 4) : 0;
    // Before the first reply there is nothing to count: no "↑ 0 ↓ 0", no "$0.00" — the segments wait.
    if (totals.replies === 0 && streamedOut === 0) {
      const used = context.contextTokens;
      if (used > 0) out.push(this.#contextSegment(used, info));
      return out;
    }
    out.push({
      id: 'core.tokens',
      text: `↑ ${compact(totals.input)} ↓ ${compact(totals.output + streamedOut)}`,
      tooltip: `Tokens on this branch: ${totals.input.toLocaleString('en')} in, ${(totals.output + streamedOut).toLocaleString('en')} out${streamedOut ? ' (the reply being written is estimated)' : ''}.`,
      priority: PRIORITY.tokens,
      source: 'core',
      tone: 'normal',
    });
    // While the first reply streams there is no cost to tell yet: the segment waits for the reply's usage.
    if (totals.replies > 0)
      out.push(
        totals.unpriced === 0
          ? {
              id: 'core.cost',
              text: money(totals.cost),
              tooltip: 'Cost of the replies on this branch, at the model prices of the models.dev catalog or the provider.',
              priority: PRIORITY.cost,
              source: 'core',
              tone: 'normal',
            }
          : {
              id: 'core.cost',
              text: totals.cost > 0 ? `${money(totals.cost)} + ?` : 'cost unknown',
              tooltip: `${totals.unpriced} ${totals.unpriced === 1 ? 'reply' : 'replies'} on this branch came from a model whose prices are not known, so ${totals.cost > 0 ? 'the cost is more than shown' : 'the cost is unknown'}.`,
              priority: PRIORITY.cost,
              source: 'core',
              tone: 'normal',
            },
      );
    out.push(this.#contextSegment(context.contextTokens + streamedOut, info));
    return out;
  }

  #contextSegment(used: number, info: ModelInfo | null): StatusSegmentView {
    if (info) {
      const share = used / info.contextWindow;
      return {
        id: 'core.context',
        text: `ctx ${Math.min(999, Math.round(share * 100))}%`,
        tooltip: `About ${used.toLocaleString('en')} of ${info.contextWindow.toLocaleString('en')} tokens of context are used.`,
        priority: PRIORITY.context,
        source: 'core',
        tone: share >= CONTEXT_WARNING ? 'warning' : 'normal',
      };
    }
    return {
      id: 'core.context',
      text: `ctx ~${compact(used)}`,
      tooltip: `About ${used.toLocaleString('en')} tokens of context are used (the model's window is not known).`,
      priority: PRIORITY.context,
      source: 'core',
      tone: 'normal',
    };
  }

  #contextFacts(sessionId: string): ContextFacts | null {
    try {
      const leafId = this.#app.sessions.leaf(sessionId);
      const known = this.#facts.get(sessionId);
      if (known && known.leafId === leafId) return known;
      let kept = this.#contexts.get(sessionId);
      if (!kept) this.#contexts.set(sessionId, (kept = new RunContext(this.#app.sessions, sessionId)));
      const context = kept.current();
      const facts = { leafId: context.leafId, model: context.model, entries: context.entries, contextTokens: estimateContextTokens(context) };
      this.#facts.set(sessionId, facts);
      return facts;
    } catch {
      this.#facts.delete(sessionId);
      this.#contexts.delete(sessionId);
      return null;
    }
  }

  #modelInfo(provider: string, modelId: string): ModelInfo | null {
    return this.#app.modelInfo({ provider, modelId });
  }

  #onAgentEvent(event: AgentEvent): void {
    const { sessionId } = event;
    // Told before the bar is built: what the run appended joins the kept context.
    if (event.type === 'entry_appended' || event.type === 'message_end' || event.type === 'tool_execution_end')
      this.#contexts.get(sessionId)?.appended(event.entry);
    switch (event.type) {
      case 'message_start':
        this.#live.set(sessionId, { streamedChars: 0 });
        this.#notifySoon(sessionId);
        return;
      case 'message_update': {
        const live = this.#live.get(sessionId);
        if (live) live.streamedChars += event.delta.kind === 'toolcall' ? event.delta.argumentsDelta.length : event.delta.text.length;
        this.#notifySoon(sessionId);
        return;
      }
      case 'message_end':
      case 'agent_settled':
        this.#live.delete(sessionId);
        this.#notifyNow(sessionId);
        return;
      case 'entry_appended':
      case 'tool_execution_end':
        this.#notifyNow(sessionId);
        return;
      default:
    }
  }

  #notifySoon(sessionId: string): void {
    this.#schedule(sessionId, STREAM_NOTIFY_MS);
  }

  #notifyNow(sessionId: string): void {
    const wait = (this.#sentAt.get(sessionId) ?? Number.NEGATIVE_INFINITY) + ENTRY_NOTIFY_MS - Date.now();
    if (wait > 0) return this.#schedule(sessionId, wait);
    const pending = this.#timers.get(sessionId);
    if (pending) clearTimeout(pending.timer);
    this.#timers.delete(sessionId);
    this.#send(sessionId);
  }

  /** Sends the bar in `ms`, unless it is already due sooner. */
  #schedule(sessionId: string, ms: number): void {
    const due = Date.now() + ms;
    const pending = this.#timers.get(sessionId);
    if (pending && pending.due <= due) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.#timers.delete(sessionId);
      this.#send(sessionId);
    }, ms);
    this.#timers.set(sessionId, { due, timer });
  }

  #send(sessionId: string): void {
    this.#sentAt.set(sessionId, Date.now());
    this.#changed(sessionId);
  }

  #clearTimers(): void {
    for (const t of this.#timers.values()) clearTimeout(t.timer);
    this.#timers.clear();
  }
}

/**
 * Tokens and cost of the assistant replies on a context's path; a reply without a cost is priced by its own
 * model (`infoOf`, when the reply names it and it is known), else by `info`, the branch's model.
 */
export function usageTotals(
  entries: readonly Entry[],
  info: ModelInfo | null,
  infoOf: (provider: string, modelId: string) => ModelInfo | null = () => null,
): { input: number; output: number; cost: number; unpriced: number; replies: number } {
  /** Replies that carry usage. */
  let replies = 0;
  let input = 0;
  let output = 0;
  let cost = 0;
  /** Replies with tokens but no cost, from a model nobody prices. */
  let unpriced = 0;
  for (const e of entries) {
    // A compaction's summary request is charged like a reply: its usage and model are on the entry.
    const charged = e.type === 'message' ? e.message : e.type === 'compaction' ? e : null;
    if (!charged) continue;
    const u = e.type === 'message' ? usageOf(e.message) : e.type === 'compaction' ? e.usage : undefined;
    if (!u) {
      // A task call's child agents spent too: their tokens and cost, as its result records them.
      const children = e.type === 'message' ? taskSpend(e.message) : null;
      if (children) {
        replies++;
        input += children.input;
        output += children.output;
        cost += children.cost;
      }
      continue;
    }
    replies++;
    const inTokens = (u.input ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
    input += inTokens;
    output += u.output ?? 0;
    const m = charged as { provider?: unknown; model?: unknown };
    const own = typeof m.provider === 'string' && typeof m.model === 'string' ? infoOf(m.provider, m.model) : null;
    const price = own ?? info;
    if (u.cost) cost += u.cost.total ?? 0;
    else if (price && price.priced !== false)
      cost +=
        ((u.input ?? 0) * price.pricing.input +
          (u.output ?? 0) * price.pricing.output +
          (u.cacheRead ?? 0) * price.pricing.cacheRead +
          (u.cacheWrite ?? 0) * price.pricing.cacheWrite) /
        1e6;
    else if (inTokens + (u.output ?? 0) > 0) unpriced++;
  }
  return { input, output, cost, unpriced, replies };
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

function money(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
