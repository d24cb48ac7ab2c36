import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_EVENT_TOPIC, assistantEnd, costing, toolEnd, turn } from './agent-events.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';

let dir: ReturnType<typeof tempDir>;
let runtime: BundledRuntime | null = null;

beforeEach(() => {
  dir = tempDir('amber-metrics-');
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

const segment = (r: BundledRuntime) => r.service.registries.statusSegments.get('metrics')?.value;

describe('the metrics plugin in its own process', () => {
  it('only listens: its one contribution is a status segment', async () => {
    runtime = await startBundled(['metrics'], { dataDir: dir.path });
    expect(runtime.service.get('metrics').contributions).toEqual([{ kind: 'statusSegment', key: 'metrics', status: 'installed' }]);
    expect(segment(runtime)?.text).toBe('');
    // What it holds in main: the segment and its subscription to agent events, nothing more.
    expect(runtime.service.ledger.labels('metrics').sort()).toEqual(['event:agent.event', 'statusSegment:metrics']);
  });

  it('shows time per turn and tool calls of the session that ran last, tokens in its tooltip', async () => {
    const r = (runtime = await startBundled(['metrics'], { dataDir: dir.path }));
    const emit = (e: unknown) => r.service.events.emit(AGENT_EVENT_TOPIC, e);
    emit(turn('s1', 'turn_start'));
    emit(assistantEnd('s1', costing(0.01, { input: 12_000, output: 300 })));
    emit(toolEnd('s1', 'ok'));
    emit(toolEnd('s1', 'denied'));
    emit(turn('s1', 'turn_end'));
    const shown = await r.until(() => {
      const s = segment(r);
      return s?.text.includes('/turn') && s;
    }, 'the turn time in the status segment');
    expect(shown.text).toMatch(/^\d+(\.\d)? (ms|s)\/turn · 2 tools$/);
    expect(shown.tooltip).toContain('Tokens in 12,000, out 300');
    expect(shown.tooltip).toContain('Tool calls 2: 1 ok, 0 failed, 1 denied');

    emit(assistantEnd('s2', costing(0, { input: 10, output: 5 })));
    await r.until(() => segment(r)?.tooltip?.includes('Conversation s2') && segment(r)?.text === '', 'the other session');
  });
});
