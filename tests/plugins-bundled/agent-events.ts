// Agent events as main publishes them to plugins, built through the shared schema so a test cannot send a
// shape the agent never would.
import { AgentEvent } from '../../src/shared/agent/agent-event.ts';

export { AGENT_EVENT_TOPIC } from '../../src/shared/plugins/core-topics.ts';

let seq = 0;

export function assistantEnd(sessionId: string, usage: Record<string, unknown>, model = { provider: 'openrouter', model: 'test-model' }): AgentEvent {
  seq++;
  return AgentEvent.parse({
    sessionId,
    runId: 'run-1',
    type: 'message_end',
    entry: {
      id: `entry-${seq}`,
      parentId: null,
      timestamp: new Date().toISOString(),
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', ...model, usage },
    },
  });
}

/** Usage whose cost the provider already worked out from the model's pricing. */
export function costing(total: number, tokens = { input: 1000, output: 100 }): Record<string, unknown> {
  return { ...tokens, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total } };
}

export function turn(sessionId: string, type: 'turn_start' | 'turn_end', n = 1): AgentEvent {
  return AgentEvent.parse({ sessionId, runId: 'run-1', type, turn: n });
}

export function toolEnd(sessionId: string, status: 'ok' | 'error' | 'denied'): AgentEvent {
  seq++;
  return AgentEvent.parse({
    sessionId,
    runId: 'run-1',
    type: 'tool_execution_end',
    toolCallId: `call-${seq}`,
    status,
    entry: {
      id: `entry-${seq}`,
      parentId: null,
      timestamp: new Date().toISOString(),
      type: 'message',
      message: { role: 'toolResult', toolCallId: `call-${seq}`, toolName: 'read_file', content: [], isError: status !== 'ok' },
    },
  });
}
