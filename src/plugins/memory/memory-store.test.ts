import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GLOBAL_SCOPE, MAX_MEMORY_CHARS } from './memory-record.ts';
import { MemoryStore } from './memory-store.ts';

let dir: string;
let store: MemoryStore;
let clock = 1_000;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-memory-store-'));
  store = MemoryStore.open(join(dir, 'memory.sqlite'), () => clock++);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const W = '/work/project';
const active = (text: string, extra: Partial<Parameters<MemoryStore['write']>[0]> = {}) =>
  store.write({ text, kind: 'user', scope: GLOBAL_SCOPE, status: 'active', ...extra });

describe('the memory store', () => {
  it('keeps a memory with where it came from, across a reopen of its file', () => {
    const { outcome, memory } = active('The user prefers tabs over spaces.', { sourceSession: 's1', sourceEntry: 'e1' });
    expect(outcome).toBe('added');
    store.close();
    store = MemoryStore.open(join(dir, 'memory.sqlite'));
    expect(store.get(memory.id)).toMatchObject({
      text: 'The user prefers tabs over spaces.',
      kind: 'user',
      scope: '',
      status: 'active',
      evidence: 1,
      pinned: false,
      sourceSession: 's1',
      sourceEntry: 'e1',
      supersedes: null,
    });
  });

  it('counts an exact repeat (case and end punctuation aside) as evidence, not a new memory', () => {
    const first = active('The user prefers tabs over spaces.').memory;
    const again = active('the user prefers TABS over spaces');
    expect(again).toMatchObject({ outcome: 'repeated', memory: { id: first.id, evidence: 2 } });
    expect(store.list(['active'])).toHaveLength(1);
  });

  it('counts a near duplicate as evidence, and keeps different facts apart', () => {
    const first = active('Deploys of the billing service go through the staging cluster first').memory;
    expect(active('Deploys of the billing service go through the staging cluster first always').memory).toMatchObject({ id: first.id, evidence: 2 });
    expect(active('The user lives in Lisbon').outcome).toBe('added');
    expect(store.list(['active'])).toHaveLength(2);
  });

  it('replaces an older memory on the same subject and keeps it in history', () => {
    const old = active('The project database is PostgreSQL version 14 on the main server').memory;
    const newer = active('The project database is PostgreSQL version 16 on the main server now');
    expect(newer.outcome).toBe('added');
    expect(newer.replaced?.id).toBe(old.id);
    expect(newer.memory.supersedes).toBe(old.id);
    expect(store.get(old.id)!.status).toBe('superseded');
    expect(store.list(['active']).map((m) => m.id)).toEqual([newer.memory.id]);
  });

  it('a suggestion replaces an active memory only once accepted; a dismissed one is not suggested again', () => {
    const old = active('The project database is PostgreSQL version 14 on the main server').memory;
    const s = store.write({ text: 'The project database is PostgreSQL version 16 on the main server now', kind: 'user', scope: '', status: 'suggested' });
    expect(store.get(old.id)!.status).toBe('active');
    store.accept(s.memory.id);
    expect(store.get(old.id)!.status).toBe('superseded');
    expect(store.get(s.memory.id)!.status).toBe('active');

    const d = store.write({ text: 'The user likes long answers', kind: 'user', scope: '', status: 'suggested' });
    store.dismiss(d.memory.id);
    expect(store.write({ text: 'The user likes long answers.', kind: 'user', scope: '', status: 'suggested' }).outcome).toBe('declined');
    expect(store.list(['suggested'])).toEqual([]);
  });

  it('recalls pinned memories and the relevant ones of the workspace and global, within the token limit', () => {
    const pinned = active('Always answer in British English').memory;
    store.pin(pinned.id, true);
    const tabs = active('The user prefers tabs for indentation in Go files').memory;
    const lisbon = active('The user lives in Lisbon').memory;
    const here = active('The build of this project runs with make release', { kind: 'project', scope: W }).memory;
    active('The build of the other project runs with gradle assemble', { kind: 'project', scope: '/elsewhere' });
    const recalled = store.recall({ prompt: 'How do I run the build? Also fix the indentation in main.go', workspace: W });
    const ids = recalled.map((m) => m.id);
    expect(ids[0]).toBe(pinned.id);
    expect(ids).toEqual(expect.arrayContaining([tabs.id, here.id]));
    expect(ids).not.toContain(lisbon.id);
    expect(recalled.every((m) => m.scope === '' || m.scope === W)).toBe(true);
    expect(store.get(tabs.id)!.lastRecalled).not.toBeNull();
    expect(store.recall({ prompt: 'build indentation', workspace: W, maxTokens: 12 }).map((m) => m.id)).toEqual([pinned.id]);
  });

  it('does not recall what is waiting, deleted or dismissed; a deleted memory can be restored', () => {
    const m = active('The user drinks green tea').memory;
    store.write({ text: 'The user drinks black coffee in the morning', kind: 'procedure', scope: '', status: 'suggested' });
    store.remove(m.id);
    expect(store.recall({ prompt: 'tea coffee', workspace: W })).toEqual([]);
    store.restore(m.id);
    expect(store.recall({ prompt: 'tea coffee', workspace: W }).map((r) => r.id)).toEqual([m.id]);
  });

  it('stores SQL-looking and quoted text verbatim and finds it', () => {
    const text = `Robert'); DROP TABLE memories;-- "quoted" OR NEAR(x) *`;
    const m = active(text).memory;
    expect(store.get(m.id)!.text).toBe(text);
    expect(store.search('robert drop').map((r) => r.id)).toEqual([m.id]);
    expect(store.search('"); OR AND NOT *')).toEqual([]);
  });

  it('refuses empty and overlong text', () => {
    expect(() => active('   ')).toThrow(/needs some text/);
    expect(() => active('x'.repeat(MAX_MEMORY_CHARS + 1))).toThrow(/at most 1000 characters/);
    expect(store.list(['active', 'suggested'])).toEqual([]);
  });

  it('forgets everything for good', () => {
    active('one thing');
    active('another matter entirely');
    expect(store.forgetAll()).toBe(2);
    expect(store.list(['active', 'superseded', 'deleted'])).toEqual([]);
    expect(store.search('thing')).toEqual([]);
  });

  it('recalls among 10,000 memories within 20 ms', () => {
    // Words from a vocabulary of 4,000 made-up ones, as varied as real notes are.
    const syllables = ['ka', 'lo', 'mi', 'ter', 'van', 'dor', 'pel', 'sun', 'rix', 'bo'];
    const word = (n: number) => `${syllables[n % 10]}${syllables[Math.floor(n / 10) % 10]}${syllables[Math.floor(n / 100) % 10]}${Math.floor(n / 1000)}`;
    const fact = (i: number) => Array.from({ length: 8 }, (_, k) => word(Math.floor(pseudoRandom(i * 8 + k) * 4000))).join(' ');
    store.batch(() => {
      for (let i = 0; i < 10_000; i++) active(fact(i));
    });
    expect(store.count('active')).toBeGreaterThan(9000);
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      const got = store.recall({ prompt: `Tell me about ${fact(i * 37)} and the rest`, workspace: W });
      times.push(performance.now() - t);
      expect(got.length).toBeGreaterThan(0);
    }
    times.sort((a, b) => a - b);
    expect(times[10]!).toBeLessThan(20);
  }, 120_000);
});

/** The same numbers every run, spread over [0, 1). */
function pseudoRandom(n: number): number {
  const x = Math.sin(n * 12.9898 + 78.233) * 43_758.5453;
  return x - Math.floor(x);
}
