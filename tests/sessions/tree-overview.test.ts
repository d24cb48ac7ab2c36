// The tree overview pages along a branch like the transcript: nodes without payloads, each with its child
// count (branch points) and its newest label, from the leaf upward.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-tree-overview-'));
  store = SessionStore.open(join(dir, 'amber.db'));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });

test('pages the branch from the leaf up with child counts and labels, and agrees with the whole tree', () => {
  const s = store.create();
  const ids = Array.from({ length: 10 }, (_, i) => store.append(s.id, user(`m${i}`)).id);
  store.append(s.id, { type: 'label', targetId: ids[3]!, label: 'old' });
  store.append(s.id, { type: 'label', targetId: ids[3]!, label: 'checkpoint' });
  const labelsLeaf = store.leaf(s.id)!;
  store.branch(s.id, ids[2]!);
  store.append(s.id, user('a fork'));
  store.branch(s.id, labelsLeaf);
  const tip = store.append(s.id, user('tip')).id;

  const first = store.treePage(s.id, { limit: 5 });
  expect(first.leafId).toBe(tip);
  expect(first.nodes.map((n) => n.id)).toEqual(
    store
      .path(s.id)
      .slice(-5)
      .map((e) => e.id),
  );
  expect(first.before).toBe(first.nodes[0]!.id);

  const second = store.treePage(s.id, { before: first.before, limit: 100 });
  expect(second.before).toBeNull();
  const branch = [...second.nodes, ...first.nodes];
  expect(branch.map((n) => n.id)).toEqual(store.path(s.id).map((e) => e.id));
  const byId = new Map(branch.map((n) => [n.id, n]));
  expect(byId.get(ids[2]!)).toMatchObject({ children: 2, preview: 'm2' });
  expect(byId.get(ids[5]!)).toMatchObject({ children: 1, label: null });
  expect(byId.get(ids[3]!)!.label).toBe('checkpoint');
  expect(byId.get(tip)!.children).toBe(0);

  // The same nodes as the whole tree, bar the child counts.
  const whole = new Map(store.tree(s.id).map((n) => [n.id, n]));
  for (const { children: _count, ...node } of branch) expect(node).toEqual(whole.get(node.id));
  expect(branch.reduce((sum, n) => sum + n.children, 0)).toBe(branch.length);
});

test('an empty session has an empty overview, and a missing page start is named', () => {
  const s = store.create();
  expect(store.treePage(s.id)).toEqual({ nodes: [], before: null, leafId: null });
  expect(() => store.treePage(s.id, { before: 'nowhere' })).toThrow(/Entry nowhere is not in conversation/);
});
