import { expect, test } from 'vitest';
import type { Entry } from '../../shared/sessions/index.ts';
import type { SubagentView } from '../../shared/subagents/index.ts';
import { mergeRow, rowsFromDetails, transcriptRows } from './subagent-rows.ts';

const row = (index: number, state: SubagentView['state']) => ({ index, state }) as SubagentView;
const entry = (id: string, parentId: string | null, text: string): Entry =>
  ({ type: 'message', id, parentId, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: text, timestamp: 0 } }) as Entry;

test("a child's transcript lists every entry in tree order, each branch of a fork numbered and indented, the leaf's path marked", () => {
  // a → b → c, and a second branch from a: a → d → e (the leaf).
  const entries = [
    entry('a', null, 'task'),
    entry('b', 'a', 'first try'),
    entry('c', 'b', 'first reply'),
    entry('d', 'a', 'second try'),
    entry('e', 'd', 'second reply'),
  ];
  const rows = transcriptRows({ session: {} as never, entries, leafId: 'e' });
  expect(rows.map((r) => [r.entry.id, r.depth, r.branch ? `${r.branch.n}/${r.branch.of}` : '', r.onLeafPath])).toEqual([
    ['a', 0, '', true],
    ['b', 1, '1/2', false],
    ['c', 1, '', false],
    ['d', 1, '2/2', true],
    ['e', 1, '', true],
  ]);
});

test('rows merge by task index, the newest word on each winning, in task order; a result without rows has none', () => {
  let rows = mergeRow([], row(1, 'running'));
  rows = mergeRow(rows, row(0, 'running'));
  rows = mergeRow(rows, row(1, 'done'));
  expect(rows.map((r) => [r.index, r.state])).toEqual([
    [0, 'running'],
    [1, 'done'],
  ]);
  expect(rowsFromDetails(undefined)).toEqual([]);
  expect(rowsFromDetails({ something: 'else' })).toEqual([]);
});
