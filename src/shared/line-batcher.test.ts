import { expect, test } from 'vitest';
import { createLineBatcher } from './line-batcher.ts';

/** A scheduler the test runs by hand: what the batcher asked to run later, in order. */
function manual() {
  const queued: (() => void)[] = [];
  return {
    schedule: (fn: () => void) => void queued.push(fn),
    run: () => queued.splice(0).forEach((fn) => fn()),
    get size() {
      return queued.length;
    },
  };
}

test('lines pushed in one turn are written together, in order, as one newline-terminated chunk', () => {
  const writes: string[] = [];
  const turn = manual();
  const batcher = createLineBatcher((chunk) => writes.push(chunk), turn.schedule);
  batcher.push('{"a":1}');
  batcher.push('{"b":2}');
  batcher.push('{"c":3}');
  expect(writes).toEqual([]);
  expect(turn.size).toBe(1);
  expect(batcher.pendingChars).toBe(24);
  turn.run();
  expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n']);
  expect(batcher.pendingChars).toBe(0);
  batcher.push('{"d":4}');
  turn.run();
  expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n', '{"d":4}\n']);
});

test('a batch that reaches its cap is written at once, and the turn writes only what came after it', () => {
  const writes: string[] = [];
  const turn = manual();
  const batcher = createLineBatcher((chunk) => writes.push(chunk), turn.schedule, 10);
  batcher.push('12345');
  batcher.push('6789');
  expect(writes).toEqual(['12345\n6789\n']);
  batcher.push('x');
  turn.run();
  expect(writes).toEqual(['12345\n6789\n', 'x\n']);
});

test('flush writes what waits now; clear forgets it, so nothing is written for a pipe that is gone', () => {
  const writes: string[] = [];
  const turn = manual();
  const batcher = createLineBatcher((chunk) => writes.push(chunk), turn.schedule);
  batcher.push('before-end');
  batcher.flush();
  expect(writes).toEqual(['before-end\n']);
  batcher.push('lost');
  batcher.clear();
  turn.run();
  expect(writes).toEqual(['before-end\n']);
  expect(batcher.pendingChars).toBe(0);
});
