import { expect, test } from 'vitest';
import type { TreeNode } from '../../shared/sessions/index.ts';
import { layoutTree } from './tree-layout.ts';

const node = (id: string, parentId: string | null, role: string | null = 'user', type = 'message'): TreeNode => ({ id, parentId, type, role, preview: id, label: null });

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
