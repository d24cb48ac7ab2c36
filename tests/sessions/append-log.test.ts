import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';

// Appends written to the append log and folded into SQLite later: what a crash, a torn or a garbage line, and
// another process on the same file find. Real files and real processes, killed with SIGKILL.

const writer = join(import.meta.dirname, '../fixtures/append-log-writer.ts');
let dir: string;
let file: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-append-log-'));
  file = join(dir, 'amber.db');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const logs = (): string[] => readdirSync(dir).filter((name) => name.startsWith('amber.db-entries-'));

function newSession(): string {
  const store = SessionStore.open(file);
  const id = store.create({ title: 'logged' }).id;
  store.close();
  return id;
}

/** Rows in SQLite itself, read by another connection. */
function rowsInSqlite(sessionId: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM entries WHERE session_id = ?').get(sessionId) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A child that appends `count` messages and blocks before its fold; resolves with their ids, the child still running. */
async function appendAndHang(sessionId: string, count: number): Promise<{ child: ChildProcess; ids: string[] }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', writer, file, sessionId, String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const ids: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the writer ended early (code ${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => (line === 'appended' ? resolve() : ids.push(line)));
  });
  return { child, ids };
}

async function kill(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

test('a process killed before its fold loses nothing: the next open replays its log, each entry once, chain and leaf intact', async () => {
  const sessionId = newSession();
  // Past the conversation's row stride (64) and its path mark stride (128): the fold would have written them.
  const { child, ids } = await appendAndHang(sessionId, 150);
  // The first message went the SQLite way; the other 149 are only in the log.
  expect(rowsInSqlite(sessionId)).toBe(1);
  expect(logs()).toHaveLength(1);
  expect(readFileSync(join(dir, logs()[0]!), 'utf8').trim().split('\n')).toHaveLength(149);
  await kill(child);

  const store = SessionStore.open(file);
  const tree = store.tree(sessionId).map((n) => n.id);
  expect(tree).toEqual(ids);
  expect(store.leaf(sessionId)).toBe(ids.at(-1));
  expect(store.check(sessionId)).toMatchObject({ ok: true, entries: 150 });
  expect(store.get(sessionId).messageCount).toBe(150);
  expect(store.context(sessionId).integrity.ok).toBe(true);
  expect(logs()).toEqual([]);
  // Opened again: nothing doubled.
  store.close();
  const again = SessionStore.open(file);
  expect(again.tree(sessionId)).toHaveLength(150);
  expect(again.get(sessionId).messageCount).toBe(150);
  expect(again.append(sessionId, { type: 'message', message: { role: 'user', content: 'after' } }).parentId).toBe(ids.at(-1));
  again.close();
});

test('a torn last line (the crash cut it short) is dropped; the entries before it are kept', async () => {
  const sessionId = newSession();
  const { child, ids } = await appendAndHang(sessionId, 10);
  await kill(child);
  const log = join(dir, logs()[0]!);
  const text = readFileSync(log, 'utf8');
  writeFileSync(log, text.slice(0, text.length - 20));
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});

  const store = SessionStore.open(file);
  expect(store.tree(sessionId).map((n) => n.id)).toEqual(ids.slice(0, 9));
  expect(store.leaf(sessionId)).toBe(ids[8]);
  expect(store.check(sessionId).ok).toBe(true);
  expect(errors).not.toHaveBeenCalled();
  expect(logs()).toEqual([]);
  store.close();
});

test('a garbage line, or one whose entry no longer matches its hash, is reported and skipped, and open does not fail', async () => {
  const sessionId = newSession();
  const { child, ids } = await appendAndHang(sessionId, 10);
  await kill(child);
  const log = join(dir, logs()[0]!);
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  expect(lines[6]).toContain('"entry 7"');
  // Line 7 is changed (its entry no longer matches its hash): it, and the entries under it, are not stored.
  lines[6] = lines[6]!.replace('"entry 7"', '"entry seven"');
  // Then hostile lines: not JSON; fields missing; a true line moved to a conversation that does not hold its
  // parent (refused); and a true line written twice (stored once, not reported).
  const moved = lines[0]!.replace(/^\{"s":"[^"]+"/, '{"s":"another-conversation"');
  expect(moved).not.toBe(lines[0]);
  writeFileSync(log, `${lines.join('\n')}\nnot json at all\n{"s":1}\n${moved}\n${lines[0]}\n`);
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});

  const store = SessionStore.open(file);
  expect(store.tree(sessionId).map((n) => n.id)).toEqual(ids.slice(0, 7));
  expect(store.leaf(sessionId)).toBe(ids[6]);
  expect(store.check(sessionId).ok).toBe(true);
  expect(errors).toHaveBeenCalledTimes(1);
  expect(String(errors.mock.calls[0]![0])).toMatch(/Skipped 6 unreadable line\(s\) \(7, 8, 9, 10, 11, 12\)/);
  expect(logs()).toEqual([]);
  store.close();
});

test('another process sees the appends once folded, within the fold delay, and the two never wait on a lock', async () => {
  const store = SessionStore.open(file, { busyTimeoutMs: 0 });
  const sessionId = store.create({ title: 'shared' }).id;
  const ids = Array.from({ length: 30 }, (_, i) => store.append(sessionId, { type: 'message', message: { role: 'user', content: `m${i}` } }).id);
  expect(rowsInSqlite(sessionId)).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(rowsInSqlite(sessionId)).toBe(30);
  const read = JSON.parse(
    execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', writer, file, `read:${sessionId}`], { encoding: 'utf8' }),
  ) as { ids: string[]; leaf: string };
  expect(read).toEqual({ ids, leaf: ids.at(-1) });
  // With no busy timeout a held lock would fail this write at once: nothing holds one between calls.
  expect(store.append(sessionId, { type: 'message', message: { role: 'user', content: 'after the read' } }).parentId).toBe(ids.at(-1));
  store.close();
});

test('a write of another process folds a live process’s log first: appends from both form one chain', async () => {
  const sessionId = newSession();
  const { child, ids } = await appendAndHang(sessionId, 20);
  expect(rowsInSqlite(sessionId)).toBe(1);
  const store = SessionStore.open(file);
  const next = store.append(sessionId, { type: 'message', message: { role: 'user', content: 'from the other process' } });
  expect(next.parentId).toBe(ids.at(-1));
  expect(store.path(sessionId).map((e) => e.id)).toEqual([...ids, next.id]);
  // The writer still runs: its log stays (it folds it itself, or the next open after it dies replays it).
  expect(logs()).toHaveLength(1);
  await kill(child);
  store.close();
  const again = SessionStore.open(file);
  expect(again.tree(sessionId)).toHaveLength(21);
  expect(again.check(sessionId).ok).toBe(true);
  again.close();
  expect(logs()).toEqual([]);
});

/** The conversation's row and path mark as another connection reads them. */
function rowsOf(path: string, sessionId: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      row: db.prepare('SELECT leaf_id, leaf_mark, message_count FROM sessions WHERE id = ?').get(sessionId),
      mark: db.prepare('SELECT path_id, path_depth FROM verified_marks WHERE session_id = ?').get(sessionId),
    };
  } finally {
    db.close();
  }
}

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `e${String(i).padStart(4, '0')}`);

// The same ids, so that the rows compare equal; a store opened with synchronous=FULL writes no log.
function writeStrides(path: string, options: { synchronous?: 'FULL' }) {
  const queue = ids(300);
  const store = SessionStore.open(path, { ...options, newId: () => queue.shift()! });
  const sessionId = store.create({ id: 'strides', title: 'strides' }).id;
  for (let i = 0; i < 300; i++) store.append(sessionId, { type: 'message', message: { role: 'user', content: `m${i}` } });
  store.flush();
  const rows = rowsOf(path, sessionId);
  store.close();
  return rows;
}

test('the fold writes the conversation’s row and path mark where each append would have: as a store without a log writes them', () => {
  const logged = writeStrides(file, {});
  const reference = writeStrides(join(dir, 'reference.db'), { synchronous: 'FULL' });
  expect(reference.row).toMatchObject({ leaf_id: 'e0256', message_count: 257 });
  expect(reference.mark).toEqual({ path_id: 'e0255', path_depth: 255 });
  expect({ row: (logged.row as { leaf_id: string }).leaf_id, count: (logged.row as { message_count: number }).message_count, mark: logged.mark }).toEqual({
    row: 'e0256',
    count: 257,
    mark: reference.mark,
  });
  const other = SessionStore.open(file);
  expect(other.get('strides')).toMatchObject({ leafId: 'e0299', messageCount: 300 });
  other.close();
});
