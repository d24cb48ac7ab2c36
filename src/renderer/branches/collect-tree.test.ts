import { expect, test } from 'vitest';
import type { TreeBranchPage, TreeOverviewNode, TreeOverviewPage } from '../../shared/sessions/index.ts';
import { collectTree, MORE_OF_BRANCH } from './collect-tree.ts';
import { layoutTree, treeSummary } from './tree-layout.ts';

const node = (id: string, parentId: string | null, children = 1, role = 'user'): TreeOverviewNode => ({
  id,
  parentId,
  type: 'message',
  role,
  preview: id,
  label: null,
  children,
});

// a → b → c (leaf); b also has x → y → z, read two nodes a page.
const path: TreeOverviewPage = { nodes: [node('a', null), node('b', 'a', 2), node('c', 'b', 0)], before: null, leafId: 'c', branches: [node('x', 'b')] };

test('a branch that leaves the active path is a stub until its page is read, then its rows sit under the branch point', () => {
  const closed = collectTree([path], new Map());
  expect([...closed.stubs]).toEqual(['x']);
  expect(closed.loaded).toBe(3);
  const rows = layoutTree(closed.nodes, 'c', closed.stubs);
  expect(rows.map((r) => [r.node.id, r.indent, r.stub])).toEqual([
    ['a', 0, false],
    ['b', 0, false],
    ['c', 1, false],
    ['x', 1, true],
  ]);
  expect(treeSummary(rows, false)).toBe('3 messages so far · 1 branch point');

  // Asked for but not read yet: still a stub.
  expect([...collectTree([path], new Map([['x', undefined]])).stubs]).toEqual(['x']);

  const first: TreeBranchPage = { nodes: [node('x', 'b'), node('y', 'x')], next: 'z', branches: [] };
  const half = collectTree([path], new Map([['x', first]]));
  expect([...half.stubs]).toEqual(['z']);
  expect(half.nodes.find((n) => n.id === 'z')).toMatchObject({ parentId: 'y', type: MORE_OF_BRANCH });

  const rest: TreeBranchPage = { nodes: [node('z', 'y', 0)], next: null, branches: [] };
  const whole = collectTree(
    [path],
    new Map([
      ['x', first],
      ['z', rest],
    ]),
  );
  expect(whole.stubs.size).toBe(0);
  expect(whole.loaded).toBe(6);
  const all = layoutTree(whole.nodes, 'c', whole.stubs);
  expect(all.map((r) => [r.node.id, r.indent])).toEqual([
    ['a', 0],
    ['b', 0],
    ['c', 1],
    ['x', 1],
    ['y', 1],
    ['z', 1],
  ]);
  expect(treeSummary(all)).toBe('6 messages · 1 branch point');
});

test('pages of the active branch are put oldest first, and a node read twice (a branch the leaf moved onto) counts once', () => {
  const top: TreeOverviewPage = { nodes: [node('c', 'b', 0)], before: 'c', leafId: 'c', branches: [] };
  const above: TreeOverviewPage = { nodes: [node('a', null), node('b', 'a', 2)], before: null, leafId: 'c', branches: [node('x', 'b')] };
  const both = collectTree([top, above], new Map([['x', { nodes: [node('x', 'b', 1), node('c', 'b', 0)], next: null, branches: [] }]]));
  expect(both.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c', 'x']);
  expect(both.loaded).toBe(4);
});
