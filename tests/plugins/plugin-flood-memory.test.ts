import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, test, vi } from 'vitest';
import { MAX_PLUGIN_LOG_BYTES, MAX_PLUGIN_LOG_LINE_CHARS } from '../../src/main/plugins/index.ts';
import { createHarness, fixture, type Harness, HOSTILE_HOST } from './plugin-harness.ts';

// What main keeps for one plugin stays bounded whatever the plugin does: a plugin that floods its stderr
// (50 MB, read by main at full speed here) and then its log (200 MB of $log calls of 1 MB each, straight
// onto its pipe) leaves main holding no more than its log ring; a plugin that subscribes to a topic and
// stops reading its pipe has at most about 1 MB of events queued for it, the rest dropped and counted.

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What main's JS holds (heap and the buffers outside it), after a full collection. */
function held(): { js: number; rss: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { js: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

const MB = 1024 * 1024;

test('a plugin flooding its log and stderr with 250 MB leaves main at most its log ring bigger', async () => {
  let ended!: () => void;
  const stderrEnded = new Promise<void>((r) => (ended = r));
  // The end of the stderr flood, as main reads it (the marker may straddle two reads).
  let tail = '';
  const onOutput = (stream: 'stdout' | 'stderr', text: string) => {
    if (stream !== 'stderr') return;
    if ((tail + text.slice(0, 16)).includes('FLOOD-END') || text.includes('FLOOD-END')) ended();
    tail = text.slice(-16);
  };
  h = createHarness(
    [fixture('hostile')],
    { callTimeoutMs: 120_000 },
    // Main reads the plugin's stderr as fast as it comes, so the whole flood reaches it within the test.
    { hostEntries: { hostile: HOSTILE_HOST }, outputBytesPerSecond: 1024 * MB, onLaunch: (_id, proc) => proc.onOutput(onOutput) },
  );
  await h.service.start();
  const before = held();
  const out = await h.service.registries.tools.execute('flood', { logs: 200, logChars: 1_000_000, stderrBytes: 50 * MB });
  expect(out.isError, JSON.stringify(out)).toBe(false);
  await stderrEnded;
  const after = held();
  const logs = h.service.logs('hostile');
  const kept = logs.reduce((n, l) => n + l.message.length, 0);
  console.info(
    `plugin log flood: js ${(before.js / MB).toFixed(1)} → ${(after.js / MB).toFixed(1)} MB, rss ${(before.rss / MB).toFixed(1)} → ${(after.rss / MB).toFixed(1)} MB; kept ${logs.length} lines, ${(kept / 1024).toFixed(0)} KiB`,
  );
  expect(kept).toBeLessThanOrEqual(MAX_PLUGIN_LOG_BYTES);
  expect(Math.max(...logs.map((l) => l.message.length))).toBeLessThanOrEqual(MAX_PLUGIN_LOG_LINE_CHARS + 1);
  // The newest lines are the ones kept: the last log call came last.
  expect(logs.at(-1)?.message).toMatch(/^199:x+…$/);
  expect(after.js - before.js).toBeLessThan(40 * MB);
  // Before the ring, the same flood left main 208 MB of JS and 340 MB of RSS bigger.
  expect(after.rss - before.rss).toBeLessThan(150 * MB);
}, 180_000);

const call = (id: string, method: string, args: unknown[]) =>
  JSON.stringify({ ch: 'host', m: { id, type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })) } });

test('events for a plugin that stops reading its pipe are dropped and counted once about 1 MB waits for it', async () => {
  let hostile: { readonly queuedBytes?: number } | null = null;
  h = createHarness([fixture('hostile')], {}, { hostEntries: { hostile: HOSTILE_HOST }, onLaunch: (_id, proc) => (hostile = proc) });
  await h.service.start();
  const subscribed = await h.service.registries.tools.execute('attack', { lines: [call('s1', '$subscribe', ['flood.big'])] });
  expect(subscribed.isError).toBe(false);
  expect((await h.service.registries.tools.execute('deaf', { calls: 0 })).content).toEqual([{ type: 'text', text: 'deaf' }]);
  // 300 events of 500 KB each: 150 MB if main queued them all for the plugin.
  const payload = { blob: 'x'.repeat(500_000) };
  for (let i = 0; i < 300; i++) h.service.events.emit('flood.big', payload);
  // The events go out together about 20 ms later: those past the first MB are dropped then.
  await vi.waitFor(() => expect(h!.service.get('hostile').dropped.events).toBeGreaterThan(250));
  expect(hostile!.queuedBytes).toBeLessThan(MB + 600_000);
});
