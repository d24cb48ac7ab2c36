import { expect, test } from 'vitest';
import { MAX_PLUGIN_LOG_BYTES, MAX_PLUGIN_LOG_LINE_CHARS, PluginLogRing } from './plugin-log-ring.ts';

test('the ring keeps the newest lines within its bytes, however many lines come', () => {
  const ring = new PluginLogRing();
  for (let i = 0; i < 100_000; i++) ring.push(i, 'info', `line ${i}`);
  const lines = ring.lines();
  expect(ring.bytes).toBeLessThanOrEqual(MAX_PLUGIN_LOG_BYTES);
  expect(lines.at(-1)?.message).toBe('line 99999');
  expect(lines.length).toBeLessThan(MAX_PLUGIN_LOG_BYTES / 64);
  // Oldest first, with no gap.
  expect(lines.map((l) => l.time)).toEqual(lines.map((_, i) => lines[0]!.time + i));
});

test('a long line is cut with an ellipsis, and long lines give way to short ones', () => {
  const ring = new PluginLogRing();
  ring.push(0, 'warn', 'y'.repeat(1_000_000));
  expect(ring.lines()[0]!.message).toBe(`${'y'.repeat(MAX_PLUGIN_LOG_LINE_CHARS)}…`);
  for (let i = 0; i < 100; i++) ring.push(i, 'warn', 'z'.repeat(10_000));
  for (let i = 0; i < 10_000; i++) ring.push(i, 'info', 'short line');
  expect(ring.lines().every((l) => l.message === 'short line')).toBe(true);
  expect(ring.bytes).toBeLessThanOrEqual(MAX_PLUGIN_LOG_BYTES);
});

test('one line larger than the ring is still kept, alone, as the newest', () => {
  const ring = new PluginLogRing(1000);
  ring.push(0, 'info', 'a');
  ring.push(1, 'error', 'b'.repeat(2000));
  expect(ring.lines().map((l) => l.level)).toEqual(['error']);
});
