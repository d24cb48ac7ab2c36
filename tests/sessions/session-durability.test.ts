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

interface Writer {
  child: ChildProcess;
  /** Resolves once the writer has opened the store and waits for "go". */
  ready: Promise<void>;
  go(): void;
}

function startWriter(sessionId: string, count: number | 'forever', tag: string, onId: (id: string) => void, mode: 'overlap' | 'plain' = 'plain'): Writer {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', writer, file, sessionId, String(count === 'forever' ? 'Infinity' : count), tag, mode],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  let markReady!: () => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    child.once('exit', (code) => reject(new Error(`writer ${tag} ended before it was ready (code ${code})`)));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') markReady();
    else onId(line);
  });
  return { child, ready, go: () => child.stdin!.write('go\n') };
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
  const { child, ready, go } = startWriter(session.id, 'forever', 'k', (id) => {
    committed.push(id);
    if (committed.length >= 300) resolveEnough();
  });
  await ready;
  go();
  child.once('exit', (code, signal) =>
    rejectEnough(new Error(`the writer ended before it was killed (code ${code}, signal ${signal}) after ${committed.length} entries`)),
  );
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

test('two processes appending to one session at the same time never corrupt it', { timeout: 90_000 }, async () => {
  const setup = SessionStore.open(file);
  const session = setup.create({ title: 'shared' });
  setup.close();

  const perWriter = 200;
  const seen: string[] = [];
  const byWriter = { a: new Set<string>(), b: new Set<string>() };
  const a = startWriter(session.id, perWriter, 'a', (id) => (seen.push(id), byWriter.a.add(id)), 'overlap');
  const b = startWriter(session.id, perWriter, 'b', (id) => (seen.push(id), byWriter.b.add(id)), 'overlap');
  // Both have the file open before either writes.
  await Promise.all([a.ready, b.ready]);
  a.go();
  b.go();
  await Promise.all([exited(a.child), exited(b.child)]);
  expect(a.child.exitCode).toBe(0);
  expect(b.child.exitCode).toBe(0);

  const store = SessionStore.open(file);
  expect(store.pragmaIntegrity()).toBe('ok');
  const nodes = store.tree(session.id);
  expect(nodes).toHaveLength(seen.length);
  expect(byWriter.a.size).toBeGreaterThanOrEqual(perWriter);
  expect(byWriter.b.size).toBeGreaterThanOrEqual(perWriter);
  assertIntact(store, session.id);
  // Each append read and moved the leaf atomically: the writes form one chain, no accidental forks.
  const chain = store.path(session.id).map((e) => e.id);
  expect(chain).toHaveLength(seen.length);
  expect(new Set(seen).size).toBe(seen.length);
  // The writers overlapped: in commit order, each one's writes began before the other's ended, so the
  // chain alternates between them at least twice (a run of one sequential writer after the other would not).
  expect(overlapped(chain, byWriter)).toBe(true);
  store.close();
});

test('the overlap check does not pass writers that ran one after the other', { timeout: 90_000 }, async () => {
  const setup = SessionStore.open(file);
  const session = setup.create({ title: 'sequential' });
  setup.close();
  const byWriter = { a: new Set<string>(), b: new Set<string>() };
  for (const tag of ['a', 'b'] as const) {
    const w = startWriter(session.id, 20, tag, (id) => byWriter[tag].add(id));
    await w.ready;
    w.go();
    await exited(w.child);
    expect(w.child.exitCode).toBe(0);
  }
  const store = SessionStore.open(file);
  expect(
    overlapped(
      store.path(session.id).map((e) => e.id),
      byWriter,
    ),
  ).toBe(false);
  store.close();
});

/**
 * Whether two writers' appends overlapped in commit order: each one's first write came before the other's
 * last, so the chain alternates between them at least twice.
 */
function overlapped(chain: string[], byWriter: { a: Set<string>; b: Set<string> }): boolean {
  const owner = chain.map((id) => (byWriter.a.has(id) ? 'a' : byWriter.b.has(id) ? 'b' : '?'));
  if (owner.includes('?')) throw new Error('an entry of the chain was written by neither writer');
  const switches = owner.filter((w, i) => i > 0 && w !== owner[i - 1]).length;
  return owner.indexOf('a') < owner.lastIndexOf('b') && owner.indexOf('b') < owner.lastIndexOf('a') && switches >= 2;
}
