// The plan service on a real SQLite file: the plan is the newest plan entry on the branch, however far up
// (read a page at a time), past a compaction too; a conversation's changes are announced once it was read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { PlanService } from '../../src/main/plan/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { PlanItem, PlanView } from '../../src/shared/plan/index.ts';

let dir: string;
let store: SessionStore;
let plan: PlanService;
let heard: PlanView[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-plan-service-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  plan = new PlanService({ store });
  heard = [];
  plan.onDidChange((view) => heard.push(view));
});
afterEach(() => {
  plan.dispose();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const say = (sessionId: string, text: string) => store.append(sessionId, { type: 'message', message: { role: 'user', content: text, timestamp: 1 } });
const items = (text: string): PlanItem[] => [{ text, status: 'in_progress' }];

test('the plan is the newest plan entry on the branch, found up from the leaf and past a compaction', () => {
  const s = store.create({ title: 't' }).id;
  expect(plan.current(s)).toEqual({ sessionId: s, items: [], entryId: null });
  const first = say(s, 'one');
  plan.write(s, items('old'));
  const written = plan.write(s, items('new'));
  for (let i = 0; i < 10; i++) say(s, `later ${i}`);
  store.append(s, { type: 'compaction', summary: 'so far', firstKeptEntryId: store.leaf(s)!, tokensBefore: 10 });
  say(s, 'after');
  // A fresh service has read nothing yet: it walks up the branch, past the compaction, to the plan.
  const fresh = new PlanService({ store });
  expect(fresh.current(s)).toEqual({ sessionId: s, items: items('new'), entryId: written.entryId });
  fresh.dispose();
  // An entry that is not a plan does not change it; a branch from before any plan has none.
  store.branch(s, first.id);
  expect(plan.current(s).items).toEqual([]);
});

test('changes are announced for conversations whose plan was read, and for every plan written', () => {
  const s = store.create({ title: 't' }).id;
  const other = store.create({ title: 'u' }).id;
  const root = say(s, 'one');
  say(other, 'elsewhere');
  plan.write(other, items('theirs'));
  expect(heard.map((v) => [v.sessionId, v.items])).toEqual([[other, items('theirs')]]);

  plan.current(s);
  const kept = plan.write(s, items('mine'));
  say(s, 'two');
  // A plain append keeps the plan: nothing announced.
  expect(heard).toHaveLength(2);
  store.branch(s, root.id);
  expect(heard.at(-1)).toEqual({ sessionId: s, items: [], entryId: null });
  store.branch(s, store.newestLeafUnder(s, root.id));
  expect(heard.at(-1)).toEqual(kept);
  expect(heard).toHaveLength(4);
});

test('a plan entry whose data does not read as a plan is passed over', () => {
  const s = store.create({ title: 't' }).id;
  plan.write(s, items('good'));
  store.append(s, { type: 'custom', customType: 'amber.plan', data: { items: 'not a list' } });
  const fresh = new PlanService({ store });
  expect(fresh.current(s).items).toEqual(items('good'));
  fresh.dispose();
});
