// `npm run bench:sessions -- N`: the session store at N entries. Builds a realistic session (the leaf jumps
// back every ~50 entries, a compaction every ~500, labels and model changes along the way) plus 1,000 small
// sessions, then measures, in five fresh processes each on its own copy of the file, and reports medians:
// open, context (first, again, and after each of a run's turns), switch, 1,000 committed appends
// (synchronous NORMAL, then FULL, and four to a transaction as a run's turn can write them; with the WAL frames
// each commit wrote, and again once the process is warm) beside the same appends made pi's way (a JSON line
// each), newest page, the tree view's first page and the whole tree, list, a full hash check and one since it,
// the whole heap and the open session's share of it. The last line is one JSON object.
//
// AMBER_BENCH_BASELINE=REV (a git revision) measures that revision's session store too, on copies of a file
// its own store wrote the same way (an older store cannot open a newer schema), its fresh processes taking
// turns with this one's, and reports its medians beside these.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SessionStore } from '../src/main/sessions/index.ts';
import { type EntryInput, TreeBranchPage, TreeOverviewPage } from '../src/shared/sessions/index.ts';
import { randomWords as text, seededRandom as rng } from '../tests/fixtures/seeded-random.ts';
import { baselineAt } from './baseline-at.ts';

type Store = SessionStore;
type OpenStore = (file: string, options?: { synchronous?: 'NORMAL' | 'FULL' }) => Store;

const SEED = 0x5eed;

function messageAt(i: number, rand: () => number): EntryInput {
  switch (i % 4) {
    case 0:
      return { type: 'message', message: { role: 'user', content: text(rand, 30), timestamp: i } };
    case 1:
      return {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: text(rand, 20) },
            { type: 'text', text: text(rand, 60) },
            { type: 'toolCall', id: `call_${i}`, name: 'read', arguments: { path: `src/file-${i % 97}.ts` } },
          ],
          provider: 'openai',
          model: 'gpt-bench',
          usage: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 1500 },
          stopReason: 'toolUse',
          timestamp: i,
        },
      };
    case 2:
      return {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: `call_${i - 1}`,
          toolName: 'read',
          content: [{ type: 'text', text: text(rand, 150) }],
          isError: false,
          timestamp: i,
        },
      };
    default:
      return {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: text(rand, 80) }],
          provider: 'openai',
          model: 'gpt-bench',
          stopReason: 'stop',
          timestamp: i,
        },
      };
  }
}

interface Built {
  sessionId: string;
  midId: string;
  write_ms: number;
}

function build(open: OpenStore, file: string, n: number): Built {
  const rand = rng(SEED);
  const store = open(file);
  const session = store.create({ title: `bench ${n}` });
  const parents = new Map<string, string | null>();
  const ids: string[] = [];
  let leaf: string | null = null;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 50 === 0) {
      // Jump back to an earlier entry of the current path (an edit or a regenerate), so the next append forks.
      let back = leaf!;
      const steps = 1 + Math.floor(rand() * 30);
      for (let k = 0; k < steps && parents.get(back); k++) back = parents.get(back)!;
      store.branch(session.id, back);
      leaf = back;
    }
    let input: EntryInput;
    if (i > 0 && i % 500 === 0) {
      // Keep the last ~20 entries of the current path.
      let kept = leaf!;
      for (let k = 0; k < 20 && parents.get(kept); k++) kept = parents.get(kept)!;
      input = { type: 'compaction', summary: text(rand, 120), firstKeptEntryId: kept, tokensBefore: 90_000 };
    } else if (i > 0 && i % 997 === 0) {
      input = { type: 'model_change', provider: 'openai', modelId: `gpt-bench-${i}` };
    } else if (i > 0 && i % 301 === 0) {
      input = { type: 'label', targetId: ids[Math.floor(rand() * ids.length)]!, label: text(rand, 2) };
    } else {
      input = messageAt(i, rand);
    }
    const entry = store.append(session.id, input);
    parents.set(entry.id, leaf);
    ids.push(entry.id);
    leaf = entry.id;
  }
  const write_ms = performance.now() - t0;
  // 1,000 more small sessions to list.
  for (let s = 0; s < 1000; s++) {
    const other = store.create({ title: `other ${s}` });
    store.append(other.id, { type: 'message', message: { role: 'user', content: text(rand, 12) } });
  }
  // Touch the big session last so it is the one a user would reopen.
  store.branch(session.id, leaf);
  store.close();
  return { sessionId: session.id, midId: ids[Math.floor(ids.length / 2)]!, write_ms };
}

/** Runs in a fresh process: everything a user does after a restart. One sample of every figure. */
function measure(open: OpenStore, file: string, sessionId: string, midId: string): Record<string, number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the measuring process needs --expose-gc');
  const heapUsed = () => {
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  const heapBefore = heapUsed();
  let t = performance.now();
  const store = open(file);
  const leaf = store.leaf(sessionId);
  const open_ms = performance.now() - t;

  t = performance.now();
  const ctx = store.context(sessionId);
  const context_ms = performance.now() - t;

  // What the open session itself holds (store, statements, the context just built), beside the whole heap.
  const heap_mb = heapUsed();
  const session_heap_mb = heap_mb - heapBefore;

  // The same context again, and after each of 20 turns (a reply appended, then the context a run builds).
  const again: number[] = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    store.context(sessionId);
    again.push(performance.now() - t);
  }
  const context_again_ms = median(again);
  const turns: number[] = [];
  for (let i = 0; i < 20; i++) {
    store.append(sessionId, { type: 'message', message: { role: 'user', content: `turn ${i}` } });
    t = performance.now();
    store.context(sessionId);
    turns.push(performance.now() - t);
  }
  const context_turn_ms = median(turns);
  store.branch(sessionId, leaf);

  t = performance.now();
  store.branch(sessionId, midId);
  const switched = store.context(sessionId);
  const switch_ms = performance.now() - t;
  store.branch(sessionId, leaf);

  // Each append is its own committed transaction (WAL, synchronous=NORMAL: survives a crash of the process).
  // The CPU time beside the wall time: on a busy machine the wall time is mostly waiting for a core.
  // The WAL frames the 1,000 commits wrote say how many pages each commit writes, a figure the load does not change.
  const walBefore = walState(`${file}-wal`);
  t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < 1000; i++) store.append(sessionId, { type: 'message', message: { role: 'user', content: `more ${i}` } });
  const append1000_committed_ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const append1000_committed_cpu_ms = (used.user + used.system) / 1000;
  const append_wal_frames = walFramesPer(walBefore, walState(`${file}-wal`), 1000);
  const pi = piAppends(`${file}.pi.jsonl`, 1000);
  // The same number of entries the way a run can write a turn: four at a time (a reply and its tool results),
  // each four one committed transaction (appendMany; absent from a baseline without it).
  let append1000_turns_ms = Number.NaN;
  if ('appendMany' in store) {
    t = performance.now();
    for (let i = 0; i < 250; i++) {
      store.appendMany(
        sessionId,
        [0, 1, 2, 3].map((k) => ({ type: 'message', message: { role: 'user', content: `turn ${i}.${k}` } })),
      );
    }
    append1000_turns_ms = performance.now() - t;
  }

  t = performance.now();
  const page = store.page(sessionId, { limit: 100 });
  const page_ms = performance.now() - t;

  // The first screen of the tree view: what sessions.treePage answers, a page of the branch from the leaf with
  // the branches that leave it, checked by the contract's schema as the router does (absent from a baseline
  // without it); then a branch that leaves it, opened (sessions.treeBranch).
  let tree_page_ms = Number.NaN;
  let tree_branch_ms = Number.NaN;
  if ('treePage' in store) {
    t = performance.now();
    const first = store.treePage(sessionId, { limit: 200 });
    TreeOverviewPage.safeParse(first);
    tree_page_ms = performance.now() - t;
    if (first.nodes.length !== 200) throw new Error('the tree overview read back less than it wrote');
    // The newest entries are a straight run (the appends above): the first branch point is some pages up.
    type Paged = { before: string | null; branches?: { id: string }[] };
    let up: Paged = first;
    for (let i = 0; i < 50 && !up.branches?.length && up.before; i++) up = store.treePage(sessionId, { before: up.before, limit: 200 }) as Paged;
    const leaving = up.branches?.[0];
    if (leaving && 'treeBranch' in store) {
      t = performance.now();
      TreeBranchPage.safeParse(store.treeBranch(sessionId, leaving.id, { limit: 100 }));
      tree_branch_ms = performance.now() - t;
    }
  }

  t = performance.now();
  const tree = store.tree(sessionId);
  const tree_ms = performance.now() - t;

  t = performance.now();
  const listed = store.list({ limit: 1000 });
  const list1000_ms = performance.now() - t;

  t = performance.now();
  const checked = store.check(sessionId);
  const check_ms = performance.now() - t;
  // Then one more append and a check of what was added since that intact check.
  let check_since_last_ms = Number.NaN;
  if ('treePage' in store) {
    store.append(sessionId, { type: 'message', message: { role: 'user', content: 'after the check' } });
    t = performance.now();
    const since = store.check(sessionId, { sinceLast: true });
    check_since_last_ms = performance.now() - t;
    if (!since.ok || since.entries !== 1) throw new Error('the check since the last one read back other than the one entry added');
  }
  // The same 1,000 committed appends again, last, in a process whose append path is now warm (compiled by the
  // JIT, the schema's parsers built): the first 1,000 above also pay for the warming, as a fresh app does.
  t = performance.now();
  const warmCpu = process.cpuUsage();
  for (let i = 0; i < 1000; i++) store.append(sessionId, { type: 'message', message: { role: 'user', content: `warm ${i}` } });
  const append1000_warm_ms = performance.now() - t;
  const warmUsed = process.cpuUsage(warmCpu);
  const append1000_warm_cpu_ms = (warmUsed.user + warmUsed.system) / 1000;
  store.close();

  // The same appends with synchronous=FULL: each commit also fsyncs the WAL (survives power loss).
  const full = open(file, { synchronous: 'FULL' });
  t = performance.now();
  for (let i = 0; i < 1000; i++) full.append(sessionId, { type: 'message', message: { role: 'user', content: `durable ${i}` } });
  const append1000_full_ms = performance.now() - t;
  full.close();

  if (ctx.entries.length === 0 || switched.entries.length === 0 || page.entries.length !== 100 || listed.length !== 1000 || tree.length === 0 || !checked.ok) {
    throw new Error('the benchmark read back less than it wrote');
  }
  return {
    open_ms,
    context_ms,
    context_again_ms,
    context_turn_ms,
    context_entries: ctx.entries.length,
    switch_ms,
    append1000_committed_ms,
    append1000_committed_cpu_ms,
    append_wal_frames,
    append1000_warm_ms,
    append1000_warm_cpu_ms,
    append1000_full_ms,
    append1000_turns_ms,
    pi_append1000_ms: pi.wall,
    pi_append1000_cpu_ms: pi.cpu,
    page_ms,
    tree_page_ms,
    tree_branch_ms,
    tree_ms,
    tree_nodes: tree.length,
    list1000_ms,
    check_ms,
    check_since_last_ms,
    check_entries: checked.entries,
    heap_mb,
    session_heap_mb,
  };
}

/**
 * The same 1,000 appends the way pi's session manager makes them, side by side: each entry one JSON line
 * appended to the session's file with appendFileSync after checking that the file and its folder exist
 * (no transaction, no fsync: like synchronous=NORMAL it survives a crash of the process, not a power loss).
 */
function piAppends(file: string, count: number): { wall: number; cpu: number } {
  writeFileSync(file, '');
  let parentId = 'root';
  const t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const entry = {
      type: 'message',
      id: Math.random().toString(16).slice(2, 10),
      parentId,
      timestamp: new Date().toISOString(),
      message: { role: 'user', content: `more ${i}` },
    };
    if (existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
    }
    parentId = entry.id;
  }
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
}

interface WalState {
  size: number;
  pageSize: number;
  /** Changes when a checkpoint restarts the WAL from its beginning. */
  checkpointSeq: number;
}

/** The WAL file's size and header (absent: no WAL yet, an empty one). */
function walState(file: string): WalState {
  if (!existsSync(file)) return { size: 0, pageSize: 0, checkpointSeq: -1 };
  const header = Buffer.alloc(32);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, header, 0, 32, 0);
    const size = fstatSync(fd).size;
    return read < 32 ? { size, pageSize: 0, checkpointSeq: -1 } : { size, pageSize: header.readUInt32BE(8), checkpointSeq: header.readUInt32BE(12) };
  } finally {
    closeSync(fd);
  }
}

/** WAL frames written per write between two looks at the WAL; NaN when a checkpoint restarted it in between (its size then says nothing). */
function walFramesPer(before: WalState, after: WalState, writes: number): number {
  if (after.pageSize === 0 || (before.size > 32 && before.checkpointSeq !== after.checkpointSeq)) return Number.NaN;
  return (after.size - Math.max(before.size, 32)) / (after.pageSize + 24) / writes;
}

const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 100) / 100]));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Copies the built database (checkpointed: one file) so that every sample starts from the same state. */
function copyOf(file: string, sample: number): string {
  const copy = join(dirname(file), `sample-${sample}.db`);
  copyFileSync(file, copy);
  return copy;
}

const DURABILITY =
  'appends: each its own transaction, in the WAL before it returns; synchronous=NORMAL (append1000_committed_ms) survives a crash of the process, not a power loss; synchronous=FULL (append1000_full_ms) fsyncs every commit and survives both';

/** The session store of a baseline checkout's folder, or this one's. */
async function storeOf(root: string | undefined): Promise<OpenStore> {
  if (!root) return (file, options) => SessionStore.open(file, options);
  return ((await import(join(root, 'src/main/sessions/index.ts'))) as { SessionStore: { open: OpenStore } }).SessionStore.open;
}

/**
 * The session a kept folder's file already holds for N entries (named in `built.json` beside it), opened once by
 * this store so that a newer schema is applied before the samples copy it; else the file built anew.
 */
function reuseOrBuild(file: string, n: number): Built {
  const marker = join(dirname(file), 'built.json');
  const kept = existsSync(marker) && existsSync(file) ? (JSON.parse(readFileSync(marker, 'utf8')) as Built & { n: number }) : null;
  if (kept?.n === n) {
    SessionStore.open(file).close();
    console.log(`reusing the ${n}-entry file in ${dirname(file)} (delete built.json there to build it again)`);
    return kept;
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  const built = build((f, options) => SessionStore.open(f, options), file, n);
  writeFileSync(marker, JSON.stringify({ n, ...built }));
  return built;
}

const args = process.argv.slice(2);
if (args[0] === '--measure') {
  // args: file, session, mid entry, and the folder of a baseline checkout (absent: this one).
  console.log(JSON.stringify(measure(await storeOf(args[4]), args[1]!, args[2]!, args[3]!)));
} else if (args[0] === '--build') {
  // args: file, N, and the folder of a baseline checkout, whose store writes a file of its own schema.
  console.log(JSON.stringify(build(await storeOf(args[3]), args[1]!, Number(args[2]))));
} else {
  const n = Number(args[0] ?? 10_000);
  const samples = Number(process.env.AMBER_BENCH_SAMPLES ?? 5);
  if (!Number.isInteger(n) || n < 100 || !Number.isInteger(samples) || samples < 1) {
    console.error('usage: npm run bench:sessions -- N   (N ≥ 100 entries; AMBER_BENCH_SAMPLES, default 5)');
    process.exit(1);
  }
  // AMBER_BENCH_DIR keeps the built file for a closer look, and a later run at the same N reuses it instead of
  // building it again (at 1,000,000 entries the build takes minutes); a temp dir is removed otherwise.
  const keep = process.env.AMBER_BENCH_DIR;
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'amber-bench-'));
  try {
    const file = join(dir, 'amber.db');
    const built = keep ? reuseOrBuild(file, n) : build(await storeOf(undefined), file, n);
    const baselineRev = process.env.AMBER_BENCH_BASELINE;
    const baselineRoot = baselineRev ? baselineAt(baselineRev, dir) : null;
    // The baseline's own file, the same session written by its store (an older store cannot open a newer schema).
    const baseFile = join(dir, 'baseline.db');
    let baseBuilt: Built | null = null;
    if (baselineRoot) {
      const child = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--build', baseFile, String(n), baselineRoot], {
        encoding: 'utf8',
      });
      if (child.status !== 0) {
        console.error(child.stderr);
        process.exit(1);
      }
      baseBuilt = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Built;
    }
    const sample = (k: number, root: string | null): Record<string, number> => {
      const from = root && baseBuilt ? baseBuilt : built;
      const copy = copyOf(root ? baseFile : file, k);
      const extra = root ? [root] : [];
      const child = spawnSync(
        process.execPath,
        ['--expose-gc', '--disable-warning=ExperimentalWarning', import.meta.filename, '--measure', copy, from.sessionId, from.midId, ...extra],
        { encoding: 'utf8' },
      );
      for (const suffix of ['', '-wal', '-shm', '.pi.jsonl']) rmSync(`${copy}${suffix}`, { force: true });
      if (child.status !== 0) {
        console.error(child.stderr);
        process.exit(1);
      }
      return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    };
    const runs: Record<string, number>[] = [];
    const baseRuns: Record<string, number>[] = [];
    // With a baseline, the two take turns (first one, then the other) so both see the same machine load.
    for (let k = 0; k < samples; k++) {
      if (baselineRoot && k % 2 === 0) baseRuns.push(sample(k, baselineRoot));
      runs.push(sample(k, null));
      if (baselineRoot && k % 2 === 1) baseRuns.push(sample(k, baselineRoot));
    }
    const mediansOf = (all: Record<string, number>[]) => Object.fromEntries(Object.keys(all[0]!).map((key) => [key, median(all.map((r) => r[key]!))]));
    const result = round({ n, samples, write_ms: built.write_ms, ...mediansOf(runs) });
    console.log(`session store at ${n} entries: medians of ${samples} samples, each in a fresh process on a copy of the same file`);
    console.log(DURABILITY);
    if (baselineRoot) console.log(`baseline ${baselineRev}: ${JSON.stringify(round({ samples, ...mediansOf(baseRuns) }))}`);
    console.log(JSON.stringify(baselineRoot ? { ...result, baseline: baselineRev } : result));
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
