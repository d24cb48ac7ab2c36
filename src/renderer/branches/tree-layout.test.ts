import { expect, test } from 'vitest';
import type { TreeNode } from '../../shared/sessions/index.ts';
import { countBranchPoints, layoutTree, treeSummary } from './tree-layout.ts';

const node = (id: string, parentId: string | null, role: string | null = 'user', type = 'message'): TreeNode => ({
  id,
  parentId,
  type,
  role,
  preview: id,
  label: null,
});

test('a straight chain stays at one indent; a fork indents its branches, the active one first', () => {
  // a → b → c1 → d1 ; b → c2 (newer, not active) ; a label entry hangs under d1 and is the leaf.
  const nodes = [node('a', null), node('b', 'a', 'assistant'), node('c1', 'b'), node('d1', 'c1', 'assistant'), node('c2', 'b'), node('l', 'd1', null, 'label')];
  const rows = layoutTree(nodes, 'l');
  expect(rows.map((r) => [r.node.id, r.indent])).toEqual([
    ['a', 0],
    ['b', 0],
    ['c1', 1],
    ['d1', 1],
    ['c2', 1],
  ]);
  expect(rows.filter((r) => r.onActivePath).map((r) => r.node.id)).toEqual(['a', 'b', 'c1', 'd1']);
  expect(rows.find((r) => r.isLeaf)?.node.id).toBe('d1');
  expect(rows.filter((r) => r.forkPoint).map((r) => r.node.id)).toEqual(['b']);
});

test('hidden entries between messages do not break the chain', () => {
  const nodes = [node('a', null), node('m', 'a', null, 'model_change'), node('b', 'm', 'assistant'), node('t', 'b', 'toolResult'), node('c', 't', 'assistant')];
  expect(layoutTree(nodes, 'c').map((r) => [r.node.id, r.indent])).toEqual([
    ['a', 0],
    ['b', 0],
    ['c', 0],
  ]);
});

test('an edited first message is a branch point at the root, counted with the others', () => {
  // Two roots (the first message and its edit), and a regenerated reply under the edit: two forks.
  const nodes = [node('a1', null), node('b1', 'a1', 'assistant'), node('a2', null), node('b2', 'a2', 'assistant'), node('b3', 'a2', 'assistant')];
  const rows = layoutTree(nodes, 'b3');
  expect(countBranchPoints(rows)).toBe(2);
  expect(treeSummary(rows)).toBe('5 messages · 2 branch points');
});

test('the summary says one branch point and one message in the singular', () => {
  expect(treeSummary(layoutTree([node('a', null)], 'a'))).toBe('1 message');
  const rows = layoutTree([node('a', null), node('b', 'a', 'assistant'), node('c', 'a', 'assistant')], 'c');
  expect(treeSummary(rows)).toBe('3 messages · 1 branch point');
});
