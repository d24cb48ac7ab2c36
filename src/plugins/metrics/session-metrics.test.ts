import { describe, expect, it } from 'vitest';
import { AgentEvent } from '../../shared/agent/index.ts';
import { compact, metricsSegmentText, SessionMetrics } from './session-metrics.ts';

const base = (sessionId: string, runId = 'r1') => ({ sessionId, runId });
const assistantEnd = (sessionId: string, id: string, usage: Record<string, unknown> | undefined) =>
  AgentEvent.parse({
    ...base(sessionId),
    type: 'message_end',
    entry: {
      id,
      parentId: null,
      timestamp: '2026-11-30T10:00:00.000Z',
      type: 'message',
      message: { role: 'assistant', content: [], stopReason: 'stop', usage },
    },
  });
const toolEnd = (sessionId: string, status: 'ok' | 'error' | 'denied') =>
  AgentEvent.parse({
    ...base(sessionId),
    type: 'tool_execution_end',
    toolCallId: 'c',
    status,
    entry: {
      id: `t-${Math.random()}`,
      parentId: null,
      timestamp: 'x',
      type: 'message',
      message: { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [], isError: status !== 'ok' },
    },
  });

describe('metrics per session', () => {
  it('adds up tokens in and out from assistant usage', () => {
    const m = new SessionMetrics();
    m.observe(assistantEnd('s1', 'a', { input: 100, output: 20, cacheRead: 900, cacheWrite: 0, cost: { total: 0.01 } }), 0);
    m.observe(assistantEnd('s1', 'b', { input: 50, output: 30 }), 0);
    expect(m.figures('s1')).toMatchObject({ tokensIn: 1050, tokensOut: 50, costUsd: 0.01 });
  });

  it('measures each turn from its start to its end', () => {
    const m = new SessionMetrics();
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_start', turn: 1 }), 1000);
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_end', turn: 1 }), 3500);
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_start', turn: 2 }), 4000);
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_end', turn: 2 }), 4500);
    expect(m.figures('s1')).toMatchObject({ turns: 2, lastTurnMs: 500, totalTurnMs: 3000 });
  });

  it('counts tool calls by outcome, per session', () => {
    const m = new SessionMetrics();
    m.observe(toolEnd('s1', 'ok'), 0);
    m.observe(toolEnd('s1', 'ok'), 0);
    m.observe(toolEnd('s1', 'denied'), 0);
    m.observe(toolEnd('s2', 'error'), 0);
    expect(m.figures('s1')?.tools).toEqual({ ok: 2, error: 0, denied: 1 });
    expect(m.figures('s2')?.tools).toEqual({ ok: 0, error: 1, denied: 0 });
    expect(m.latest()?.sessionId).toBe('s2');
  });

  it('ignores user messages and deltas', () => {
    const m = new SessionMetrics();
    expect(m.observe(AgentEvent.parse({ ...base('s1'), type: 'message_update', delta: { kind: 'text', text: 'hi' } }), 0)).toBeNull();
    expect(m.figures('s1')).toBeUndefined();
  });

  it('writes a short status text and a fuller tooltip', () => {
    const m = new SessionMetrics();
    m.observe(assistantEnd('s1', 'a', { input: 12_300, output: 4_500 }), 0);
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_start', turn: 1 }), 0);
    m.observe(AgentEvent.parse({ ...base('s1'), type: 'turn_end', turn: 1 }), 3200);
    m.observe(toolEnd('s1', 'ok'), 0);
    const { text, tooltip } = metricsSegmentText(m.latest());
    expect(text).toBe('3.2 s/turn · 1 tool');
    expect(tooltip).toContain('Tokens in 12,300, out 4,500');
    expect(tooltip).toContain('Tool calls 1: 1 ok, 0 failed, 0 denied');
    expect(metricsSegmentText(undefined).text).toBe('');
  });

  it('compacts large numbers', () => {
    expect([compact(950), compact(12_345), compact(123_456), compact(4_200_000)]).toEqual(['950', '12.3k', '123k', '4.2M']);
  });
});
