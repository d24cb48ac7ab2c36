// The tree view's routes: the active branch paged upward from the leaf, and a branch the leaf is not on read
// downward from where it leaves, both checked against the contract's schemas on the way out.
import { afterEach, expect, test } from 'vitest';
import { TreeBranchPage, TreeOverviewPage } from '../../src/shared/sessions/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let under: AppUnderTest | null = null;
afterEach(async () => {
  await under?.close();
  under = null;
});

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });

test('sessions.treePage pages the active branch up from the leaf and sessions.treeBranch opens the branch that leaves it', async () => {
  under = openApp({ prefix: 'amber-tree-route-' });
  const store = under.app.sessions;
  const s = store.create({ title: 'Forked' });
  const first = store.append(s.id, user('first'));
  const kept = Array.from({ length: 5 }, (_, i) => store.append(s.id, user(`kept ${i}`)));
  store.branch(s.id, first.id);
  const other = [store.append(s.id, user('other 0')), store.append(s.id, user('other 1'))];
  store.branch(s.id, kept.at(-1)!.id);

  const top = TreeOverviewPage.parse(await under.call('sessions.treePage', { sessionId: s.id, limit: 3 }));
  expect(top.nodes.map((n) => n.preview)).toEqual(['kept 2', 'kept 3', 'kept 4']);
  expect(top.leafId).toBe(kept.at(-1)!.id);
  expect(top.branches).toEqual([]);
  const up = TreeOverviewPage.parse(await under.call('sessions.treePage', { sessionId: s.id, before: top.before, limit: 3 }));
  expect(up.nodes.map((n) => n.preview)).toEqual(['first', 'kept 0', 'kept 1']);
  expect(up.before).toBeNull();
  expect(up.branches.map((n) => n.id)).toEqual([other[0]!.id]);

  const branch = TreeBranchPage.parse(await under.call('sessions.treeBranch', { sessionId: s.id, from: up.branches[0]!.id }));
  expect(branch).toMatchObject({ next: null, branches: [] });
  expect(branch.nodes.map((n) => n.id)).toEqual(other.map((e) => e.id));

  const missing = await under.refused('sessions.treeBranch', { sessionId: s.id, from: 'nowhere' });
  expect(missing.code).toBe('not_found');
});
