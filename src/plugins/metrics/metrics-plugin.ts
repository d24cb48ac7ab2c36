import { AgentEvent } from '../../shared/agent/index.ts';
import { AGENT_EVENT_TOPIC } from '../../shared/plugins/index.ts';
import { type DefinedPlugin, definePlugin, type PluginContext } from '../../workers/sdk/index.ts';
import { metricsSegmentText, SessionMetrics } from './session-metrics.ts';

export const METRICS_SEGMENT_ID = 'metrics';

/** Event types that change a figure; others (text deltas above all) are skipped before parsing. */
const OBSERVED = new Set(['agent_start', 'turn_start', 'turn_end', 'agent_end', 'message_end', 'tool_execution_end']);

export interface MetricsPluginSeams {
  /** Milliseconds on a monotonic clock: turn times are differences of it. */
  now?: () => number;
}

/**
 * Observes agent events only — tokens in and out, time per turn, tool calls per session — and shows the
 * session that ran last in one status segment. It contributes nothing else and changes nothing.
 */
export function createMetricsPlugin(seams: MetricsPluginSeams = {}): DefinedPlugin {
  const now = seams.now ?? (() => performance.now());
  const metrics = new SessionMetrics();
  let ctx: PluginContext | null = null;

  const segment = () => ({ id: METRICS_SEGMENT_ID, ...metricsSegmentText(metrics.latest()), priority: 10 });

  const onAgentEvent = (payload: unknown) => {
    const type = typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !OBSERVED.has(type)) return;
    const parsed = AgentEvent.safeParse(payload);
    if (!parsed.success) return;
    if (metrics.observe(parsed.data, now()) !== null) ctx?.updateStatus(segment());
  };

  return definePlugin({
    manifest: { id: 'metrics', version: '1.0.0' },
    initialize(context) {
      ctx = context;
      context.events.on(AGENT_EVENT_TOPIC, onAgentEvent, { types: [...OBSERVED] });
      return true;
    },
    shutdown() {
      ctx = null;
    },
    capabilities: () => [{ kind: 'statusSegment', ...segment() }],
  });
}
