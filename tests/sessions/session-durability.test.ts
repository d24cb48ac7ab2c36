import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';

const writer = join(import.meta.dirname, '../fixtures/append-writer.ts');
let dir: string;
let file: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-durability-'));
  file = join(dir, 'amber.db');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function startWriter(sessionId: string, count: number | 'forever', tag: string, onId: (id: string) => void): ChildProcess {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', writer, file, sessionId, String(count === 'forever' ? 'Infinity' : count), tag], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line !== 'ready') onId(line);
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Every entry reaches a root through parents that exist, and the leaf exists. */
function assertIntact(store: SessionStore, sessionId: string): void {
  const nodes = store.tree(sessionId);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const node of nodes) if (node.parentId !== null) expect(byId.has(node.parentId)).toBe(true);
  const leaf = store.leaf(sessionId);
  if (leaf !== null) expect(byId.has(leaf)).toBe(true);
}

test('a writer killed with SIGKILL mid-stream loses no committed entry', { timeout: 90_000 }, async () => {
  const setup = SessionStore.open(file);
  const session = setup.create({ title: 'killed' });
  setup.close();

  const committed: string[] = [];
  let resolveEnough!: () => void;
  let rejectEnough!: (e: Error) => void;
  const enough = new Promise<void>((resolve, reject) => {
    resolveEnough = resolve;
    rejectEnough = reject;
  });
  const child = startWriter(session.id, 'forever', 'k', (id) => {
    committed.push(id);
    if (committed.length >= 300) resolveEnough();
  });
  child.once('exit', (code, signal) => rejectEnough(new Error(`the writer ended before it was killed (code ${code}, signal ${signal}) after ${committed.length} entries`)));
  await enough;
  child.kill('SIGKILL');
  await exited(child);
  expect(child.signalCode).toBe('SIGKILL');

  const store = SessionStore.open(file);
  const ids = new Set(store.tree(session.id).map((n) => n.id));
  expect(committed.length).toBeGreaterThanOrEqual(300);
  for (const id of committed) expect(ids.has(id)).toBe(true);
  assertIntact(store, session.id);
  // The leaf is the newest entry that committed, and the session keeps working.
  expect(ids.has(store.leaf(session.id)!)).toBe(true);
  store.append(session.id, { type: 'message', message: { role: 'user', content: 'after the crash' } });
  assertIntact(store, session.id);
  store.close();
});

test('two processes appending to one session never corrupt it', { timeout: 90_000 }, async () => {
  const setup = SessionStore.open(file);
  const session = setup.create({ title: 'shared' });
  setup.close();

  const perWriter = 200;
  const seen: string[] = [];
  const a = startWriter(session.id, perWriter, 'a', (id) => seen.push(id));
  const b = startWriter(session.id, perWriter, 'b', (id) => seen.push(id));
  await Promise.all([exited(a), exited(b)]);
  expect(a.exitCode).toBe(0);
  expect(b.exitCode).toBe(0);

  const store = SessionStore.open(file);
  expect(store.pragmaIntegrity()).toBe('ok');
  const nodes = store.tree(session.id);
  expect(nodes).toHaveLength(2 * perWriter);
  assertIntact(store, session.id);
  // Each append read and moved the leaf atomically: the writes form one chain, no accidental forks.
  expect(store.path(session.id)).toHaveLength(2 * perWriter);
  expect(new Set(seen).size).toBe(2 * perWriter);
  store.close();
});
