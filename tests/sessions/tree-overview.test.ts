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
const reply = (model: string): EntryInput => ({
  type: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text: `from ${model}` }], model, provider: 'p', stopReason: 'stop' },
});

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

  // The fork at m2 leaves the branch once: its other child is named on the page that holds m2, on no other.
  expect(first.branches).toEqual([]);
  expect(second.branches.map((n) => [n.preview, n.parentId, n.children])).toEqual([['a fork', ids[2]!, 0]]);
});

test('a page below which the leaf was moved back names every child of that node as leaving the branch', () => {
  const s = store.create();
  const [a, b] = [store.append(s.id, user('a')), store.append(s.id, user('b'))];
  store.branch(s.id, a.id);
  const page = store.treePage(s.id);
  expect(page.nodes.map((n) => n.id)).toEqual([a.id]);
  expect(page.branches.map((n) => n.id)).toEqual([b.id]);
});

test('the page that reaches the root names the other roots (an edited first message) as branches', () => {
  const s = store.create();
  const first = store.append(s.id, user('first try'));
  store.branch(s.id, null);
  const edited = store.append(s.id, user('first try, edited'));
  const page = store.treePage(s.id);
  expect(page.nodes.map((n) => n.id)).toEqual([edited.id]);
  expect(page.branches.map((n) => [n.id, n.parentId])).toEqual([[first.id, null]]);
});

test('a branch the leaf is not on reads down along the newest child, page by page, naming its own branch points', () => {
  const s = store.create();
  const root = store.append(s.id, user('root'));
  const main = store.append(s.id, user('main'));
  store.branch(s.id, root.id);
  const side = Array.from({ length: 6 }, (_, i) => store.append(s.id, user(`side ${i}`)));
  // A second child of side 2, written after side 3 (so the newest), and one more entry below side 5.
  store.branch(s.id, side[2]!.id);
  const later = store.append(s.id, user('later under side 2'));
  store.branch(s.id, side[5]!.id);
  store.append(s.id, user('newest under side 5'));
  store.branch(s.id, main.id);

  const top = store.treePage(s.id);
  expect(top.branches.map((n) => n.id)).toEqual([side[0]!.id]);

  const first = store.treeBranch(s.id, side[0]!.id, { limit: 4 });
  expect(first.nodes.map((n) => n.preview)).toEqual(['side 0', 'side 1', 'side 2', 'later under side 2']);
  expect(first.next).toBeNull();
  // The newest child of side 2 is the one written after side 3: the read follows it and names side 3 as leaving.
  expect(first.branches.map((n) => n.id)).toEqual([side[3]!.id]);
  expect(first.nodes.at(-1)!.id).toBe(later.id);

  const rest = store.treeBranch(s.id, side[3]!.id, { limit: 2 });
  expect(rest.nodes.map((n) => n.preview)).toEqual(['side 3', 'side 4']);
  expect(rest.next).toBe(side[5]!.id);
  const last = store.treeBranch(s.id, rest.next!, { limit: 2 });
  expect(last.nodes.map((n) => n.preview)).toEqual(['side 5', 'newest under side 5']);
  expect(last.next).toBeNull();
  expect(() => store.treeBranch(s.id, 'nowhere')).toThrow(/Entry nowhere is not in conversation/);
});

test('an empty session has an empty overview, and a missing page start is named', () => {
  const s = store.create();
  expect(store.treePage(s.id)).toEqual({ nodes: [], before: null, leafId: null, branches: [] });
  expect(() => store.treePage(s.id, { before: 'nowhere' })).toThrow(/Entry nowhere is not in conversation/);
});

test('each node says when it was written, and a reply which model wrote it, on the path, down a branch and among the roots', () => {
  const file = join(dir, 'clocked.db');
  let now = Date.UTC(2026, 10, 30, 9, 0);
  const clocked = SessionStore.open(file, { clock: () => (now += 60_000) });
  try {
    const s = clocked.create();
    const q = clocked.append(s.id, user('a question'));
    const a = clocked.append(s.id, reply('model-a'));
    clocked.branch(s.id, q.id);
    const b = clocked.append(s.id, reply('model-b'));
    const page = clocked.treePage(s.id);
    const byId = new Map([...page.nodes, ...page.branches].map((n) => [n.id, n]));
    expect(byId.get(q.id)).toMatchObject({ at: Date.parse(q.timestamp) });
    expect(byId.get(q.id)!.model).toBeUndefined();
    expect(byId.get(b.id)).toMatchObject({ model: 'model-b', at: Date.parse(b.timestamp) });
    // The other reply leaves the path: named as a branch, and read down as one, with its own model and time.
    expect(byId.get(a.id)).toMatchObject({ model: 'model-a', at: Date.parse(a.timestamp) });
    expect(new Set([q, a, b].map((e) => Date.parse(e.timestamp))).size).toBe(3);
    expect(clocked.treeBranch(s.id, a.id).nodes[0]).toMatchObject({ model: 'model-a', at: Date.parse(a.timestamp) });
    expect(clocked.tree(s.id).map((n) => n.model ?? null)).toEqual([null, 'model-a', 'model-b']);
    // A message keeps its own time (an imported one was written long before it was stored).
    const old = clocked.append(s.id, { ...user('from an import'), timestamp: '2024-01-02T03:04:05.000Z' });
    expect(clocked.treePage(s.id).nodes.at(-1)).toMatchObject({ id: old.id, at: Date.UTC(2024, 0, 2, 3, 4, 5) });
  } finally {
    clocked.close();
  }
});
