import type { AgentEvent } from '../../shared/agent/index.ts';
import { isAssistant } from '../../shared/sessions/index.ts';

/** What one session has done while this plugin listened. */
export interface SessionFigures {
  sessionId: string;
  /** Prompt tokens: input plus cache reads and writes. */
  tokensIn: number;
  tokensOut: number;
  /** Cost the provider reported, US dollars. */
  costUsd: number;
  turns: number;
  /** Wall time of the newest finished turn (turn_start → turn_end), ms. */
  lastTurnMs: number | null;
  totalTurnMs: number;
  tools: { ok: number; error: number; denied: number };
}

const MAX_SESSIONS = 100;

/**
 * Figures per session from agent events alone. Pure: the caller passes the time each event arrived, so
 * latency is measured on one clock. Events it does not know are ignored.
 */
export class SessionMetrics {
  readonly #sessions = new Map<string, SessionFigures>();
  readonly #turnStarts = new Map<string, number>();
  #latest: string | null = null;

  /** Returns the session whose figures changed, or null. */
  observe(event: AgentEvent, now: number): string | null {
    const turnKey = `${event.sessionId}\u0000${event.runId}`;
    switch (event.type) {
      case 'agent_start':
        this.#touch(event.sessionId);
        return event.sessionId;
      case 'turn_start':
        this.#turnStarts.set(turnKey, now);
        this.#touch(event.sessionId);
        return null;
      case 'turn_end': {
        const started = this.#turnStarts.get(turnKey);
        this.#turnStarts.delete(turnKey);
        const f = this.#touch(event.sessionId);
        f.turns++;
        if (started !== undefined) {
          f.lastTurnMs = Math.max(0, now - started);
          f.totalTurnMs += f.lastTurnMs;
        }
        return event.sessionId;
      }
      case 'agent_end':
        // A run that ended mid-turn leaves no start behind.
        for (const key of this.#turnStarts.keys()) if (key.startsWith(`${event.sessionId}\u0000${event.runId}`)) this.#turnStarts.delete(key);
        return null;
      case 'message_end': {
        const entry = event.entry;
        if (entry.type !== 'message' || !isAssistant(entry.message)) return null;
        const usage = entry.message.usage;
        if (!usage) return null;
        const f = this.#touch(event.sessionId);
        f.tokensIn += usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
        f.tokensOut += usage.output;
        f.costUsd += usage.cost?.total ?? 0;
        return event.sessionId;
      }
      case 'tool_execution_end': {
        const f = this.#touch(event.sessionId);
        f.tools[event.status]++;
        return event.sessionId;
      }
      default:
        return null;
    }
  }

  figures(sessionId: string): SessionFigures | undefined {
    return this.#sessions.get(sessionId);
  }

  /** The session that most recently did something. */
  latest(): SessionFigures | undefined {
    return this.#latest === null ? undefined : this.#sessions.get(this.#latest);
  }

  #touch(sessionId: string): SessionFigures {
    let f = this.#sessions.get(sessionId);
    if (f) this.#sessions.delete(sessionId);
    else f = { sessionId, tokensIn: 0, tokensOut: 0, costUsd: 0, turns: 0, lastTurnMs: null, totalTurnMs: 0, tools: { ok: 0, error: 0, denied: 0 } };
    // Most recently active last, so the oldest is dropped first.
    this.#sessions.set(sessionId, f);
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    this.#latest = sessionId;
    return f;
  }
}

/**
 * The status bar text: `3.2 s/turn · 7 tools`, and a tooltip with the rest. Tokens are only in the tooltip:
 * the core's own segment shows them beside this one. A figure it does not have yet is left out rather than
 * shown as nothing ("0 tools" while the first tool runs); with no figure at all the text is empty, and the
 * bar leaves the segment out.
 */
export function metricsSegmentText(f: SessionFigures | undefined): { text: string; tooltip: string } {
  if (!f)
    return {
      text: '',
      tooltip: 'Turn time and tool calls of the conversation that ran last appear here after its next reply; runs before Amber started are not counted.',
    };
  const toolCount = f.tools.ok + f.tools.error + f.tools.denied;
  const parts: string[] = [];
  if (f.lastTurnMs !== null) parts.push(`${seconds(f.lastTurnMs)}/turn`);
  if (toolCount > 0) parts.push(`${toolCount} tool${toolCount === 1 ? '' : 's'}`);
  const average = f.turns > 0 && f.lastTurnMs !== null ? f.totalTurnMs / f.turns : null;
  const tooltip = [
    `Conversation ${f.sessionId}`,
    `Tokens in ${f.tokensIn.toLocaleString('en-US')}, out ${f.tokensOut.toLocaleString('en-US')}`,
    `Cost reported $${f.costUsd.toFixed(4)}`,
    `Turns ${f.turns}${f.lastTurnMs !== null ? `, last ${seconds(f.lastTurnMs)}` : ''}${average !== null ? `, average ${seconds(average)}` : ''}`,
    `Tool calls ${toolCount}: ${f.tools.ok} ok, ${f.tools.error} failed, ${f.tools.denied} denied`,
  ].join('\n');
  return { text: parts.join(' · '), tooltip };
}

/** 950 → 950, 12345 → 12.3k, 4_200_000 → 4.2M. */
export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${trim(n / 1e3)}k`;
  return `${trim(n / 1e6)}M`;
}

function trim(x: number): string {
  return x >= 100 ? String(Math.round(x)) : String(Number(x.toFixed(1)));
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
