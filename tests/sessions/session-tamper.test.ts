import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { entryHash } from '../../src/main/sessions/entry-hash.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/sessions/migrations.ts';
import { exportPiSession, importPiSession, SessionStore } from '../../src/main/sessions/index.ts';
import type { Entry, EntryInput } from '../../src/shared/sessions/index.ts';

// Another program changing the database under Amber: a second sqlite connection writing raw SQL.

const FIXTURE = join(import.meta.dirname, '../fixtures/pi/branched-v3.jsonl');

let dir: string;
let file: string;
const opened: SessionStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-tamper-'));
  file = join(dir, 'amber.db');
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(path = file): SessionStore {
  const store = SessionStore.open(path);
  opened.push(store);
  return store;
}

/** Runs raw SQL on the file through a connection of its own, as another program would. */
function outside<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const reply = (text: string): EntryInput => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' } });

function rewriteText(id: string, text: string): void {
  outside((db) => {
    const info = db.prepare(`UPDATE entries SET payload = json_set(payload, '$.message.content', ?) WHERE id = ?`).run(text, id);
    expect(info.changes).toBe(1);
  });
}

/** A schema-3 file as the previous Amber wrote it: payloads in zod's key order, no hash column. */
function writeV3(path: string, sessions: { id: string; leaf: string; entries: Entry[] }[], options: { childFirst?: boolean } = {}): void {
  const db = new Database(path);
  for (let v = 0; v < 3; v++) db.exec(MIGRATIONS[v]!);
  db.pragma('user_version = 3');
  db.pragma('foreign_keys = OFF');
  const insert = db.prepare(
    `INSERT INTO entries (session_id, id, parent_id, type, role, preview, depth, payload, created_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, 1)`,
  );
  for (const s of sessions) {
    db.prepare(`INSERT INTO sessions (id, title, created_at, updated_at, leaf_id) VALUES (?, 'old', 1, 1, ?)`).run(s.id, s.leaf);
    const depth = new Map<string | null, number>([[null, -1]]);
    for (const e of s.entries) depth.set(e.id, depth.get(e.parentId)! + 1);
    const order = options.childFirst ? [...s.entries].reverse() : s.entries;
    for (const e of order) {
      insert.run(s.id, e.id, e.parentId, e.type, e.type === 'message' ? e.message.role : null, depth.get(e.id)!, JSON.stringify(e));
    }
  }
  db.close();
}

/** A linear session of six messages. */
function sixMessages(store: SessionStore) {
  const s = store.create({ title: 'watched' });
  const ids = [user('u1'), reply('a1'), user('u2'), reply('a2'), user('u3'), reply('a3')].map((input) => store.append(s.id, input).id);
  return { sessionId: s.id, ids };
}

describe('migration 4', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const tree: Entry[] = [
    { type: 'message', id: 'r', parentId: null, timestamp: at, message: { role: 'user', content: 'first' } },
    { type: 'message', id: 'a', parentId: 'r', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'one' }], stopReason: 'stop' } },
    { type: 'message', id: 'b', parentId: 'a', timestamp: at, message: { role: 'user', content: 'second' } },
    { type: 'message', id: 'c', parentId: 'a', timestamp: at, message: { role: 'user', content: 'second, edited' } },
  ];

  test('hashes every entry of a v3 file, parents first, exactly as importing the same entries does', () => {
    writeV3(file, [{ id: 's1', leaf: 'c', entries: tree }]);
    // Stored child before parent: the chain follows the tree, not the row order.
    const childFirst = join(dir, 'child-first.db');
    writeV3(childFirst, [{ id: 's2', leaf: 'c', entries: tree }], { childFirst: true });

    const store = open();
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.check('s1')).toEqual({ sessionId: 's1', entries: 4, ok: true, changed: [] });
    expect(store.context('s1').integrity).toEqual({ ok: true, changed: [] });
    expect(store.path('s1').map((e) => e.id)).toEqual(['r', 'a', 'c']);
    expect([...store.allEntries('s1')]).toEqual(tree);
    expect(store.append('s1', reply('after the migration')).parentId).toBe('c');
    expect(store.check('s1').ok).toBe(true);

    const reordered = open(childFirst);
    expect(reordered.check('s2')).toEqual({ sessionId: 's2', entries: 4, ok: true, changed: [] });

    const imported = open(join(dir, 'imported.db'));
    imported.importSession({ id: 's1', entries: tree, leafId: 'c' });
    const hashes = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(`SELECT id, hash FROM entries WHERE session_id = ? AND id IN ('r','a','b','c') ORDER BY id`).all(path === childFirst ? 's2' : 's1');
      } finally {
        db.close();
      }
    };
    const migrated = hashes(file);
    expect(migrated).toHaveLength(4);
    expect(migrated.every((r) => /^[0-9a-f]{16}$/.test((r as { hash: string }).hash))).toBe(true);
    expect(hashes(join(dir, 'imported.db'))).toEqual(migrated);
    expect(hashes(childFirst)).toEqual(migrated);
  });

  test('a v3 entry changed after the migration is caught like any other', () => {
    writeV3(file, [{ id: 's1', leaf: 'c', entries: tree }]);
    open().close();
    rewriteText('r', 'first, rewritten');
    expect(open().check('s1')).toMatchObject({ ok: false, changed: ['r'] });
  });
});

describe('an entry changed in place by another program', () => {
  test('is named by check, by context and by the first page, and the session refuses appends with a sentence', () => {
    const store = open();
    const { sessionId, ids } = sixMessages(store);
    const other = store.create();
    expect(store.context(sessionId).integrity).toEqual({ ok: true, changed: [] });

    rewriteText(ids[2]!, 'u2, but different');

    // The same open store: context verifies what it walks every time.
    expect(store.context(sessionId).integrity).toEqual({ ok: false, changed: [ids[2]] });
    expect(() => store.append(sessionId, user('more'))).toThrow(
      `Conversation ${sessionId} is read-only: entry ${ids[2]} was changed outside Amber. Start a new conversation to continue, or run \`amber sessions check ${sessionId}\` for details.`,
    );

    // After a restart, the first append finds it before writing anything.
    store.close();
    const reopened = open();
    const leaf = reopened.leaf(sessionId);
    expect(() => reopened.append(sessionId, user('more'))).toThrow(/read-only/);
    expect(() => reopened.appendMany(sessionId, [user('more'), reply('more')])).toThrow(/read-only/);
    expect(reopened.leaf(sessionId)).toBe(leaf);
    expect(reopened.page(sessionId).integrity).toEqual({ ok: false, changed: [ids[2]] });
    expect(reopened.check(sessionId)).toEqual({ sessionId, entries: 6, ok: false, changed: [ids[2]] });
    // The changed text is what is read: nothing is hidden, only marked.
    expect(reopened.entry(sessionId, ids[2]!)).toMatchObject({ message: { content: 'u2, but different' } });

    // Other sessions in the same file are untouched.
    expect(reopened.append(other.id, user('still fine')).parentId).toBeNull();
    expect(reopened.check(other.id).ok).toBe(true);
  });

  test('the first page learns of a change on the context path beyond the page', () => {
    const store = open();
    const s = store.create();
    const first = store.append(s.id, user('long ago')).id;
    for (let i = 0; i < 30; i++) store.append(s.id, i % 2 ? user(`u${i}`) : reply(`a${i}`));
    rewriteText(first, 'long ago, rewritten');
    const page = open().page(s.id, { limit: 10 });
    expect(page.entries.map((e) => e.id)).not.toContain(first);
    expect(page.integrity).toEqual({ ok: false, changed: [first] });
  });

  test('a payload rewritten with the same value in another key order is not a change', () => {
    const store = open();
    const { sessionId, ids } = sixMessages(store);
    outside((db) => {
      const row = db.prepare(`SELECT payload FROM entries WHERE id = ?`).get(ids[3]) as { payload: string };
      const value = JSON.parse(row.payload) as Record<string, unknown>;
      const reversed = Object.fromEntries(Object.entries(value).reverse());
      const text = JSON.stringify(reversed);
      expect(text).not.toBe(row.payload);
      db.prepare(`UPDATE entries SET payload = ? WHERE id = ?`).run(text, ids[3]);
    });
    const reopened = open();
    expect(reopened.check(sessionId).ok).toBe(true);
    expect(reopened.context(sessionId).integrity.ok).toBe(true);
    expect(reopened.append(sessionId, user('fine')).parentId).toBe(ids[5]);
  });

  test('an overwritten hash breaks its own entry and its child; a row inserted without a hash is caught too', () => {
    const store = open();
    const { sessionId, ids } = sixMessages(store);
    store.close();
    outside((db) => {
      db.prepare(`UPDATE entries SET hash = '0000000000000000' WHERE id = ?`).run(ids[1]);
      // Another program appends by hand: a row with no hash under the leaf, and the leaf moved to it.
      const payload = JSON.stringify({
        type: 'message',
        id: 'forged',
        parentId: ids[5],
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'x' },
      });
      db.prepare(
        `INSERT INTO entries (session_id, id, parent_id, type, role, preview, depth, payload, created_at) VALUES (?, 'forged', ?, 'message', 'user', '', 6, ?, 1)`,
      ).run(sessionId, ids[5], payload);
      db.prepare(`UPDATE sessions SET leaf_id = 'forged' WHERE id = ?`).run(sessionId);
    });
    const reopened = open();
    expect(reopened.check(sessionId).changed).toEqual([ids[1], ids[2], 'forged']);
    expect(reopened.context(sessionId).integrity.changed).toEqual(['forged', ids[2], ids[1]]);
  });

  test('context checks only the path it walks: a change above the newest compaction or on another branch is reported by check alone', () => {
    const store = open();
    const s = store.create();
    const u1 = store.append(s.id, user('u1')).id;
    const a1 = store.append(s.id, reply('a1')).id;
    store.branch(s.id, u1);
    const aside = store.append(s.id, reply('a1, regenerated')).id;
    store.branch(s.id, a1);
    const u2 = store.append(s.id, user('u2')).id;
    store.append(s.id, reply('a2'));
    store.append(s.id, { type: 'compaction', summary: 'u1 and a1', firstKeptEntryId: u2, tokensBefore: 1000 });
    store.close();

    rewriteText(a1, 'a1, rewritten above the cut');
    rewriteText(aside, 'a1 regenerated, rewritten off the path');

    const reopened = open();
    const context = reopened.context(s.id);
    expect(context.entries[0]!.type).toBe('compaction');
    expect(context.integrity).toEqual({ ok: true, changed: [] });
    // Nothing on the walked path changed: the session still takes appends.
    reopened.append(s.id, user('u3'));

    expect(reopened.check(s.id)).toMatchObject({ ok: false, changed: [a1, aside] });
    // Once this store has seen the change, the session is read-only here too.
    expect(() => reopened.append(s.id, user('u4'))).toThrow(/read-only: entries .* were changed outside Amber/);
  });
});

describe('pi import and export', () => {
  test('import computes a valid chain, export carries no hashes, and a change after import is caught', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const store = open();
    const { session, entries } = importPiSession(store, text);
    expect(store.check(session.id)).toEqual({ sessionId: session.id, entries, ok: true, changed: [] });
    expect(store.context(session.id).integrity.ok).toBe(true);

    const hashes = outside((db) => db.prepare(`SELECT hash FROM entries WHERE session_id = ?`).pluck().all(session.id) as string[]);
    expect(hashes).toHaveLength(entries);
    const exported = exportPiSession(store, session.id);
    for (const hash of hashes) expect(exported).not.toContain(hash);
    expect(exported).not.toContain('"hash"');

    const again = open(join(dir, 'again.db'));
    const reimported = importPiSession(again, exported);
    expect(again.check(reimported.session.id).ok).toBe(true);

    const id = store.leaf(session.id)!;
    outside((db) => db.prepare(`UPDATE entries SET payload = replace(payload, '"timestamp":"', '"timestamp":"1') WHERE id = ?`).run(id));
    expect(store.check(session.id).changed).toEqual([id]);
  });
});

describe('a payload broken beyond reading', () => {
  test('the session still refuses appends and check names the entry; reading it says it was changed outside Amber', () => {
    const store = open();
    const s = store.create();
    store.append(s.id, user('u1'));
    const broken = store.append(s.id, { type: 'compaction', summary: 's', firstKeptEntryId: store.leaf(s.id)!, tokensBefore: 1 }).id;
    store.append(s.id, user('u2'));
    store.close();
    outside((db) => db.prepare(`UPDATE entries SET payload = '{"type":' WHERE id = ?`).run(broken));
    const reopened = open();
    expect(() => reopened.append(s.id, user('more'))).toThrow(new RegExp(`read-only: entry ${broken} was changed outside Amber`));
    expect(reopened.check(s.id).changed).toEqual([broken]);
    expect(() => reopened.context(s.id)).toThrow(new RegExp(`Stored entry ${broken} is not valid JSON: it was changed outside Amber`));
  });
});

/** Another program's write: a user message whose content is a number. */
const wrongShape = (db: Database.Database, id: string) =>
  db.prepare(`UPDATE entries SET payload = json_set(payload, '$.message.content', json('42')) WHERE id = ?`).run(id);

function longSession(store: SessionStore): { sessionId: string; ids: string[] } {
  const s = store.create();
  const ids: string[] = [];
  for (let i = 0; i < 300; i++) ids.push(store.append(s.id, user(`u${i}`)).id);
  return { sessionId: s.id, ids };
}

// A context's entries are checked against the schema only where their stored hashes do not vouch for them: a row
// read unchecked reaches the model only when its hash matches its fields under its parent's, with no change
// anywhere on the walked path. Rows above the verified path mark (PATH_MARK_STRIDE entries back) included.
describe('an entry of the wrong shape on the context path', () => {
  test('is refused with a sentence naming it, near the leaf or above the verified path mark, by a store that never read it', () => {
    for (const at of [298, 10]) {
      const store = open();
      const { sessionId, ids } = longSession(store);
      store.close();
      outside((db) => wrongShape(db, ids[at]!));
      expect(() => open().context(sessionId)).toThrow(new RegExp(`Stored entry ${ids[at]} does not match its schema`));
    }
  });

  test('is refused even when the other program wrote the hash its fields give (the entry below it no longer matches)', () => {
    const store = open();
    const { sessionId, ids } = longSession(store);
    store.close();
    const target = ids[150]!;
    outside((db) => {
      wrongShape(db, target);
      const row = db.prepare('SELECT parent_id, type, payload FROM entries WHERE id = ?').get(target) as { parent_id: string; type: string; payload: string };
      const parentHash = (db.prepare('SELECT hash FROM entries WHERE id = ?').get(row.parent_id) as { hash: string }).hash;
      db.prepare('UPDATE entries SET hash = ? WHERE id = ?').run(entryHash(parentHash, target, row.parent_id, row.type, row.payload), target);
    });
    const reopened = open();
    expect(reopened.check(sessionId).changed).toEqual([ids[151]]);
    expect(() => reopened.context(sessionId)).toThrow(new RegExp(`Stored entry ${target} does not match its schema`));
  });

  test('an intact session read unchecked gives the same context as one checked in full', () => {
    const store = open();
    const { sessionId } = longSession(store);
    store.append(sessionId, { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }], stopReason: 'stop' } });
    const written = store.path(sessionId).filter((e) => e.type === 'message');
    store.close();
    const context = open().context(sessionId);
    expect(context.integrity).toEqual({ ok: true, changed: [] });
    expect(context.entries).toEqual(written);
  });
});
