import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { EntryInput } from '../../shared/sessions/index.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
import { SessionStore } from './session-store.ts';

let dir: string;
let file: string;
let store: SessionStore;

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const assistant = (text: string, stopReason: 'stop' | 'error' | 'aborted' | 'toolUse' = 'stop'): EntryInput => ({
  type: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text }], stopReason },
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-store-'));
  file = join(dir, 'amber.db');
  store = SessionStore.open(file);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sessions', () => {
  test('create, rename, list with search and delete', () => {
    let t = 1000;
    store.close();
    store = SessionStore.open(file, { clock: () => (t += 10) });
    const a = store.create({ title: 'Alpha' });
    const b = store.create();
    store.append(b.id, user('how do I parse SSE in node?'));
    expect(store.get(b.id).preview).toBe('how do I parse SSE in node?');
    expect(store.get(b.id).messageCount).toBe(1);
    expect(store.list().map((s) => s.id)).toEqual([b.id, a.id]);
    expect(store.list({ query: 'sse' }).map((s) => s.id)).toEqual([b.id]);
    expect(store.list({ query: 'alp' }).map((s) => s.id)).toEqual([a.id]);
    expect(store.list({ query: '100%' })).toEqual([]);
    store.rename(a.id, '  Renamed ');
    expect(store.get(a.id).title).toBe('Renamed');
    expect(() => store.rename(a.id, '   ')).toThrow(/cannot be empty/);
    store.delete(b.id);
    expect(store.list().map((s) => s.id)).toEqual([a.id]);
    expect(() => store.get(b.id)).toThrow(/does not exist/);
  });

  test('search finds text in any message, not only the first', () => {
    const s = store.create({ title: 't' });
    store.append(s.id, user('first'));
    store.append(s.id, assistant('the answer mentions zebras'));
    expect(store.list({ query: 'zebra' }).map((x) => x.id)).toEqual([s.id]);
  });

  test('a session_info name becomes the title', () => {
    const s = store.create();
    store.append(s.id, { type: 'session_info', name: 'Named by info' });
    expect(store.get(s.id).title).toBe('Named by info');
  });
});

describe('entries', () => {
  test('append moves the leaf and branch forks the next append', () => {
    const s = store.create();
    const u1 = store.append(s.id, user('one'));
    const a1 = store.append(s.id, assistant('two'));
    expect(a1.parentId).toBe(u1.id);
    expect(store.leaf(s.id)).toBe(a1.id);
    store.branch(s.id, u1.id);
    const a2 = store.append(s.id, assistant('two, again'));
    expect(a2.parentId).toBe(u1.id);
    expect(store.siblings(s.id, a2.id)).toEqual({ ids: [a1.id, a2.id], index: 1 });
    expect(store.children(s.id, u1.id)).toEqual([a1.id, a2.id]);
    expect(store.children(s.id, null)).toEqual([u1.id]);
    expect(store.entry(s.id, a1.id)).toEqual(a1);
  });

  test('branch(null) starts a new root', () => {
    const s = store.create();
    const r1 = store.append(s.id, user('one'));
    store.branch(s.id, null);
    const r2 = store.append(s.id, user('other root'));
    expect(r2.parentId).toBeNull();
    expect(store.children(s.id, null)).toEqual([r1.id, r2.id]);
  });

  test('the active leaf survives a restart, also after a jump to another branch', () => {
    const s = store.create();
    const u1 = store.append(s.id, user('one'));
    store.append(s.id, assistant('a'));
    store.branch(s.id, u1.id);
    const b = store.append(s.id, assistant('b'));
    store.append(s.id, user('deeper'));
    store.branch(s.id, b.id);
    store.close();
    store = SessionStore.open(file);
    expect(store.leaf(s.id)).toBe(b.id);
    expect(store.path(s.id).map((e) => e.id)).toEqual([u1.id, b.id]);
  });

  test('a bad payload, an unknown type or a missing parent is refused and nothing is written', () => {
    const s = store.create();
    const u1 = store.append(s.id, user('one'));
    const before = store.tree(s.id).length;
    expect(() => store.append(s.id, { type: 'message', message: { role: 'assistant', content: 'nope' } } as unknown as EntryInput)).toThrow(
      /Refused a 'message' entry/,
    );
    expect(() => store.append(s.id, { type: 'mystery' } as unknown as EntryInput)).toThrow(/Refused a 'mystery' entry/);
    expect(() =>
      store.importSession({
        entries: [{ type: 'message', id: 'x1', parentId: 'ghost', timestamp: 't', message: { role: 'user', content: 'hi' } }],
        leafId: 'x1',
      }),
    ).toThrow(/parent ghost is not in conversation/);
    expect(() => store.append(s.id, { type: 'label', targetId: 'ghost', label: 'x' })).toThrow(/target ghost/);
    expect(() => store.branch(s.id, 'ghost')).toThrow(/not in conversation/);
    expect(store.tree(s.id)).toHaveLength(before);
    expect(store.leaf(s.id)).toBe(u1.id);
    expect(store.list()).toHaveLength(1);
  });

  test('a compaction must keep from an entry on its own branch', () => {
    const s = store.create();
    const a = store.append(s.id, user('a'));
    const b = store.append(s.id, user('b'));
    store.branch(s.id, a.id);
    store.append(s.id, user('c'));
    expect(() => store.append(s.id, { type: 'compaction', summary: 's', firstKeptEntryId: b.id, tokensBefore: 1 })).toThrow(/not on its branch/);
    expect(store.append(s.id, { type: 'compaction', summary: 's', firstKeptEntryId: a.id, tokensBefore: 1 }).type).toBe('compaction');
  });

  test('an entry id is unique within its session', () => {
    const s = store.create();
    store.append(s.id, { ...user('one'), id: 'same' });
    expect(() => store.append(s.id, { ...user('two'), id: 'same' })).toThrow(/already used/);
  });

  test('appendMany writes all or nothing', () => {
    const s = store.create();
    expect(() => store.appendMany(s.id, [user('ok'), { type: 'bogus' } as unknown as EntryInput])).toThrow();
    expect(store.tree(s.id)).toEqual([]);
    const written = store.appendMany(s.id, [user('a'), assistant('b')]);
    expect(written[1]!.parentId).toBe(written[0]!.id);
  });

  test('tree is compact and resolves labels, newest wins, clearing allowed', () => {
    const s = store.create();
    const u1 = store.append(s.id, user('hello there'));
    const a1 = store.append(s.id, assistant('hi'));
    store.append(s.id, { type: 'label', targetId: u1.id, label: 'start' });
    store.append(s.id, { type: 'label', targetId: a1.id, label: 'first' });
    store.append(s.id, { type: 'label', targetId: a1.id });
    const tree = store.tree(s.id);
    expect(tree[0]).toEqual({ id: u1.id, parentId: null, type: 'message', role: 'user', preview: 'hello there', label: 'start', at: expect.any(Number) });
    expect(tree[1]!.label).toBeNull();
    expect(tree).toHaveLength(5);
  });

  test('newestLeafUnder follows the most recent child', () => {
    const s = store.create();
    const u = store.append(s.id, user('q'));
    store.append(s.id, assistant('old'));
    store.branch(s.id, u.id);
    const a2 = store.append(s.id, assistant('new'));
    const deep = store.append(s.id, user('more'));
    expect(store.newestLeafUnder(s.id, u.id)).toBe(deep.id);
    expect(store.newestLeafUnder(s.id, a2.id)).toBe(deep.id);
  });
});

describe('pages and context', () => {
  test('pages walk the branch from the leaf upward', () => {
    const s = store.create();
    const ids = store
      .appendMany(
        s.id,
        Array.from({ length: 25 }, (_, i) => user(`m${i}`)),
      )
      .map((e) => e.id);
    const p1 = store.page(s.id, { limit: 10 });
    expect(p1.entries.map((e) => e.id)).toEqual(ids.slice(15));
    const p2 = store.page(s.id, { limit: 10, before: p1.before });
    expect(p2.entries.map((e) => e.id)).toEqual(ids.slice(5, 15));
    const p3 = store.page(s.id, { limit: 10, before: p2.before });
    expect(p3.entries.map((e) => e.id)).toEqual(ids.slice(0, 5));
    expect(p3.before).toBeNull();
  });

  test('context leaves failed and aborted replies and non-message entries out', () => {
    const s = store.create();
    store.append(s.id, { type: 'model_change', provider: 'openai', modelId: 'gpt-x' });
    store.append(s.id, { type: 'thinking_level_change', thinkingLevel: 'high' });
    store.append(s.id, user('q1'));
    store.append(s.id, assistant('boom', 'error'));
    store.append(s.id, assistant('partial', 'aborted'));
    store.append(s.id, { type: 'custom', customType: 'plugin', data: { secret: 1 } });
    store.append(s.id, assistant('good'));
    const ctx = store.context(s.id);
    expect(ctx.messages.map((m) => (m.role === 'user' ? m.content : (m as { content: { text: string }[] }).content[0]!.text))).toEqual(['q1', 'good']);
    expect(ctx.model).toEqual({ provider: 'openai', modelId: 'gpt-x' });
    expect(ctx.thinkingLevel).toBe('high');
    // Still in the tree.
    expect(store.tree(s.id).filter((n) => n.role === 'assistant')).toHaveLength(3);
  });

  test('context is cut at the newest compaction: summary, then entries from the first kept one', () => {
    const s = store.create();
    store.append(s.id, { type: 'model_change', provider: 'p', modelId: 'm1' });
    const old = store.appendMany(s.id, [user('a'), assistant('b'), user('c'), assistant('d')]);
    store.append(s.id, { type: 'compaction', summary: 'first summary', firstKeptEntryId: old[1]!.id, tokensBefore: 100 });
    const mid = store.appendMany(s.id, [user('e'), assistant('f')]);
    store.append(s.id, { type: 'compaction', summary: 'second summary', firstKeptEntryId: mid[0]!.id, tokensBefore: 200 });
    const tail = store.append(s.id, user('g'));
    const ctx = store.context(s.id);
    expect(ctx.entries.map((e) => e.type)).toEqual(['compaction', 'message', 'message', 'message']);
    expect(ctx.entries[0]).toMatchObject({ summary: 'second summary' });
    expect(ctx.entries.slice(1).map((e) => e.id)).toEqual([mid[0]!.id, mid[1]!.id, tail.id]);
    expect(ctx.messages[0]).toMatchObject({ role: 'user' });
    expect(String((ctx.messages[0] as { content: string }).content)).toContain('second summary');
    // Found above the cut.
    expect(ctx.model).toEqual({ provider: 'p', modelId: 'm1' });
    // At an earlier leaf the first compaction is the newest on the path.
    const ctxEarlier = store.context(s.id, mid[1]!.id);
    expect(ctxEarlier.entries[0]).toMatchObject({ summary: 'first summary' });
    expect(ctxEarlier.entries.slice(1).map((e) => e.id)).toEqual([old[1]!.id, old[2]!.id, old[3]!.id, mid[0]!.id, mid[1]!.id]);
  });
});

describe('schema', () => {
  test('a new file gets every migration', () => {
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.pluginStates().size).toBe(0);
  });

  test('every earlier version migrates forward and keeps its data', () => {
    for (let version = 1; version < SCHEMA_VERSION; version++) {
      const old = join(dir, `v${version}.db`);
      const db = new Database(old);
      for (let v = 0; v < version; v++) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${version}`);
      db.prepare(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s1', 'kept', 1, 1)`).run();
      db.close();
      const migrated = SessionStore.open(old);
      expect(migrated.schemaVersion).toBe(SCHEMA_VERSION);
      expect(migrated.get('s1').title).toBe('kept');
      migrated.setPluginState('x', false);
      expect(migrated.pluginStates().get('x')).toBe(false);
      migrated.close();
    }
  });

  test('a file from a newer Amber is refused with a clear error', () => {
    store.close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => SessionStore.open(file)).toThrow(/newer Amber/);
    store = SessionStore.open(join(dir, 'other.db'));
  });

  test('settings round-trip and clear', () => {
    store.setSetting('theme', 'dark');
    expect(store.getSetting('theme')).toBe('dark');
    store.setSetting('theme', null);
    expect(store.getSetting('theme')).toBeNull();
  });
});
