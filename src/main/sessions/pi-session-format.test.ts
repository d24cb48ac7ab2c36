import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Entry, EntryInput } from '../../shared/sessions/index.ts';
import { parsePiSession, serializePiSession } from './pi-session-format.ts';
import { PiSessionFormatError } from './pi-session-format-error.ts';
import { exportPiSession } from './pi-session-export.ts';
import { importPiSession } from './pi-session-import.ts';
import { SessionStore } from './session-store.ts';

const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/pi');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const jsonLines = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const msg = (id: string, parentId: string | null): string =>
  JSON.stringify({ type: 'message', id, parentId, timestamp: 't', message: { role: 'user', content: id } });

/** Label resolution as the store does it, by creation order: the newest label on a target wins. */
function resolveLabels(entries: Entry[]): Record<string, string | null> {
  const labels: Record<string, string | null> = Object.fromEntries(entries.map((e) => [e.id, null]));
  for (const e of entries) if (e.type === 'label') labels[e.targetId] = e.label || null;
  return labels;
}

/** Creation order with the leaf moved to just before its first dependent (or to the end). */
function asReimported(entries: Entry[], leaf: Entry): Entry[] {
  const rest = entries.filter((e) => e !== leaf);
  const first = rest.findIndex((e) => e.parentId === leaf.id || (e.type === 'label' && e.targetId === leaf.id));
  return first === -1 ? [...rest, leaf] : [...rest.slice(0, first), leaf, ...rest.slice(first)];
}

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-pi-'));
  store = SessionStore.open(join(dir, 'amber.db'));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What must survive a trip through a file: ids, parents, payloads, the leaf and the resolved labels. */
function shape(sessionId: string) {
  return {
    entries: [...store.allEntries(sessionId)].sort((a, b) => a.id.localeCompare(b.id)),
    leaf: store.leaf(sessionId),
    labels: Object.fromEntries(store.tree(sessionId).map((n) => [n.id, n.label])),
  };
}

function expectFormatError(run: () => unknown): PiSessionFormatError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(PiSessionFormatError);
    return e as PiSessionFormatError;
  }
  throw new Error('expected a PiSessionFormatError');
}

describe('version 3', () => {
  test('a branched session imports with its ids, tree, labels, leaf, title and working directory', () => {
    const text = fixture('branched-v3.jsonl');
    const lines = jsonLines(text);
    const { session, entries, version } = importPiSession(store, text);

    expect(version).toBe(3);
    expect(entries).toBe(lines.length - 1);
    expect(session.id).toBe(lines[0]!.id);
    expect(session.title).toBe('Retry with backoff for the weather CLI');
    expect(session.cwd).toBe('/home/dev/projects/weather-cli');
    expect(session.createdAt).toBe(Date.parse(lines[0]!.timestamp as string));
    expect(session.leafId).toBe(lines.at(-1)!.id);

    const tree = store.tree(session.id);
    expect(tree.map((n) => [n.id, n.parentId])).toEqual(lines.slice(1).map((l) => [l.id, l.parentId]));
    const labels = Object.fromEntries(tree.filter((n) => n.label).map((n) => [n.id, n.label]));
    // "retry-task" was cleared by a later label entry; the others stand.
    expect(labels).toEqual({ '9d0e1f2a': 'flag-done', '1d2e3f4a': 'logging' });
    expect(store.children(session.id, '1b2c3d4e')).toEqual(['2c3d4e5f', '6e7f8a9b']);

    // The active branch: the first answer, then the branch summary, the reminder and the logging work.
    const context = store.context(session.id);
    expect(context.entries.map((e) => e.id)).toEqual([
      'c3d4e5f6',
      'd4e5f6a7',
      'e5f6a7b8',
      'f6a7b8c9',
      '0a1b2c3d',
      '1b2c3d4e',
      '6e7f8a9b',
      '7f8a9b0c',
      '8a9b0c1d',
      '9b0c1d2e',
      '1d2e3f4a',
    ]);
    expect(context.model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(context.thinkingLevel).toBe('high');
    // The compacted branch is intact too.
    expect(store.context(session.id, '5d6e7f8a').entries.map((e) => e.id)).toEqual([
      '0e1f2a3b',
      '5f6a7b8c',
      '7b8c9d0e',
      '8c9d0e1f',
      '9d0e1f2a',
      '1f2a3b4c',
      '2a3b4c5d',
    ]);
  });

  test('import → export → import gives the same session, and the export is the file pi wrote', () => {
    const text = fixture('branched-v3.jsonl');
    const first = importPiSession(store, text).session;
    const exported = exportPiSession(store, first.id);

    const [header, ...entries] = jsonLines(exported);
    const [originalHeader, ...originalEntries] = jsonLines(text);
    expect(header).toEqual({ type: 'session', version: 3, id: originalHeader!.id, timestamp: originalHeader!.timestamp, cwd: originalHeader!.cwd });
    expect(entries).toEqual(originalEntries);
    expect(exported.endsWith('\n')).toBe(true);

    const second = importPiSession(store, exported).session;
    expect(second.id).not.toBe(first.id); // the id was taken, so it came in as a new session
    expect(second.title).toBe(first.title);
    expect(shape(second.id)).toEqual(shape(first.id));
  });

  test('the title falls back to the first user message; a byte-order mark, blank lines and CRLF are accepted', () => {
    const text = [
      '{"type":"session","version":3,"id":"s-crlf","timestamp":"2026-01-01T00:00:00.000Z","cwd":""}',
      '',
      '{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"Why   is the sky\\nblue?"}}',
      '   ',
    ].join('\r\n');
    const { session } = importPiSession(store, `\uFEFF${text}`);
    expect(session.title).toBe('Why is the sky blue?');
    expect(session.cwd).toBeNull();
    expect(session.leafId).toBe('u1');
  });

  test('a header-only file imports as an empty session', () => {
    const { session, entries } = importPiSession(store, '{"type":"session","version":3,"id":"empty","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}\n');
    expect(entries).toBe(0);
    expect(session.leafId).toBeNull();
    expect(session.title).toBe('');
  });
});

describe('entries are checked once', () => {
  test('an imported file is stored as its lines were read; an entry that was not read from a file is still checked as it is stored', () => {
    const text = fixture('branched-v3.jsonl');
    const { session } = importPiSession(store, text);
    expect(store.tree(session.id).map((n) => n.id)).toEqual(parsePiSession(text).entries.map((e) => e.id));
    expect(jsonLines(exportPiSession(store, session.id))).toEqual(jsonLines(text));
    const unread = { type: 'message', id: 'x1', parentId: null, timestamp: 't', message: { role: 'user', content: 5 } } as unknown as Entry;
    expect(() => store.importSession({ entries: [unread], leafId: 'x1' })).toThrow(/Refused a 'message' entry/);
    // An entry read from a file, given under another parent than the file's, is checked again as it is stored.
    const [first] = parsePiSession(`${text.split('\n')[0]}\n${msg('y1', null)}\n`).entries;
    expect(() => store.importSession({ entries: [{ ...first!, parentId: 'ghost' }], leafId: 'y1' })).toThrow(/parent ghost is not in conversation/);
  });
});

describe('older versions migrate as pi migrates them', () => {
  test('version 2: the hookMessage role becomes custom; the tree is kept', () => {
    const { session, version } = importPiSession(store, fixture('notes-v2.jsonl'));
    expect(version).toBe(2);
    const hook = store.entry(session.id, 'cc33dd44');
    expect(hook.type === 'message' && hook.message.role).toBe('custom');
    expect(store.children(session.id, 'cc33dd44')).toEqual(['dd44ee55', 'ee55ff66']);
    expect(session.leafId).toBe('ee55ff66');
    expect(session.title).toBe("Summarise yesterday's meeting notes.");
    const exported = jsonLines(exportPiSession(store, session.id));
    expect(exported[0]!.version).toBe(3);
    expect(JSON.stringify(exported)).not.toContain('hookMessage');
  });

  test('version 1: entries get ids chained in file order, and the compaction keeps the entry its index named', () => {
    let n = 0;
    const { session, version } = importPiSession(store, fixture('linear-v1.jsonl'), { newId: () => `v1-${++n}` });
    expect(version).toBe(1);
    const path = store.path(session.id);
    expect(path.map((e) => [e.id, e.parentId])).toEqual([
      ['v1-1', null],
      ['v1-2', 'v1-1'],
      ['v1-3', 'v1-2'],
      ['v1-4', 'v1-3'],
      ['v1-5', 'v1-4'],
      ['v1-6', 'v1-5'],
      ['v1-7', 'v1-6'],
    ]);
    const compaction = path[4]!;
    // Index 3 counts the header as 0: the third entry, "It overlaps the nav on mobile."
    expect(compaction).toMatchObject({ type: 'compaction', firstKeptEntryId: 'v1-3' });
    expect(compaction).not.toHaveProperty('firstKeptEntryIndex');
    expect(store.context(session.id).entries.map((e) => e.id)).toEqual(['v1-5', 'v1-3', 'v1-4', 'v1-6', 'v1-7']);
    expect(session.cwd).toBe('/home/dev/site');
  });

  test('version 1 ids are unique without a seam', () => {
    const parsed = parsePiSession(fixture('linear-v1.jsonl'));
    expect(new Set(parsed.entries.map((e) => e.id)).size).toBe(7);
    expect(parsed.entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
  });
});

describe('malformed files are refused whole', () => {
  test('every malformed line is reported with its line number, and nothing is written', () => {
    store.create({ title: 'already here' });
    const lines = fixture('branched-v3.jsonl').trimEnd().split('\n');
    lines[3] = lines[3]!.slice(0, 40); // line 4: cut short
    lines[8] = lines[8]!.replace(/"content":\[.*\],"api"/, '"content":"just text","api"'); // line 9: assistant content must be parts
    lines[13] = lines[13]!.replace('"type":"model_change"', '"type":"model_switch"'); // line 14: unknown type
    lines[17] = lines[17]!.replace('"tokensBefore":48213,', ''); // line 18: compaction without tokensBefore

    const error = expectFormatError(() => importPiSession(store, lines.join('\n')));
    expect(error.problems.map((p) => p.line)).toEqual([4, 9, 14, 18]);
    expect(error.message).toMatch(/^Not a valid pi session: 4 lines are malformed\./);
    expect(error.message).toContain('line 4: not valid JSON');
    expect(error.message).toContain('line 9: message entry: message.content: expected array, received string');
    expect(error.message).toContain("line 14: unknown entry type 'model_switch'");
    expect(error.message).toContain('line 18: compaction entry: tokensBefore: expected number, received undefined');
    expect(error.code).toBe('invalid_input');
    expect(store.list().map((s) => s.title)).toEqual(['already here']);
  });

  test('broken references are reported: duplicate ids, missing parents and targets, loops, compactions off their branch', () => {
    const h = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';
    const refs = [
      h,
      msg('a', null),
      msg('a', null),
      msg('b', 'ghost'),
      JSON.stringify({ type: 'label', id: 'l', parentId: 'a', timestamp: 't', targetId: 'nobody', label: 'x' }),
    ];
    expect(expectFormatError(() => parsePiSession(refs.join('\n'))).problems).toEqual([
      { line: 3, message: 'the id a is already used on line 2' },
      { line: 4, message: 'its parent ghost is not in the file' },
      { line: 5, message: "the label's target nobody is not in the file" },
    ]);

    const loop = [h, msg('a', null), msg('x', 'y'), msg('y', 'x'), msg('z', 'y')];
    expect(expectFormatError(() => parsePiSession(loop.join('\n'))).problems.map((p) => p.line)).toEqual([3, 4, 5]);

    const compaction = JSON.stringify({ type: 'compaction', id: 'c', parentId: 'b', timestamp: 't', summary: 's', firstKeptEntryId: 'other', tokensBefore: 1 });
    const offBranch = [h, msg('a', null), msg('b', 'a'), msg('other', 'a'), compaction];
    expect(expectFormatError(() => parsePiSession(offBranch.join('\n'))).problems).toEqual([
      { line: 5, message: 'the compaction keeps entry other, which is not an earlier entry on its branch' },
    ]);
    expect(store.count()).toBe(0);
  });

  test('a file that is not a pi session, or from a newer pi, is refused in one sentence', () => {
    expect(expectFormatError(() => parsePiSession('{"hello":"world"}\n')).message).toContain('line 1: the first line is not a pi session header');
    expect(expectFormatError(() => parsePiSession('{"type":"session","version":3}\n')).message).toContain('line 1: the session header is invalid: id:');
    expect(() => parsePiSession('')).toThrow(/The file is empty/);
    expect(() => parsePiSession('{"type":"session","version":4,"id":"s","timestamp":"t","cwd":""}')).toThrow(
      /format version 4, newer than the versions Amber reads \(1 to 3\); update Amber/,
    );
  });

  test('a long list of problems is summarised after the first fifty, with every line number', () => {
    const h = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';
    const error = expectFormatError(() => parsePiSession([h, ...Array.from({ length: 60 }, () => '{')].join('\n')));
    expect(error.problems).toHaveLength(60);
    expect(error.message.split('\n')).toHaveLength(1 + 50 + 1);
    expect(error.message).toContain('…and 10 more problems on lines 52, 53, 54, 55, 56, 57, 58, 59, 60, 61');
  });
});

describe('export puts the active leaf last', () => {
  test('a leaf moved back to an older sibling, and a leaf with children, come back as the leaf', () => {
    const s = store.create({ title: 'jumping around', cwd: '/p' });
    const root = store.append(s.id, user('root'));
    const older = store.append(s.id, user('older answer'));
    store.branch(s.id, root.id);
    store.append(s.id, user('newer answer'));
    store.append(s.id, { type: 'label', targetId: older.id, label: 'keep' });

    for (const leaf of [older.id, root.id]) {
      store.branch(s.id, leaf);
      const text = exportPiSession(store, s.id);
      const lines = jsonLines(text);
      expect(lines.at(-1)!.id).toBe(leaf);
      const other = SessionStore.open(join(dir, `other-${leaf}.db`));
      try {
        const copy = importPiSession(other, text).session;
        expect(copy.id).toBe(s.id);
        expect(copy.leafId).toBe(leaf);
        const parents = (st: SessionStore) => Object.fromEntries([...st.allEntries(s.id)].map((e) => [e.id, e.parentId]));
        expect(parents(other)).toEqual(parents(store));
        expect(other.tree(s.id).find((n) => n.id === older.id)!.label).toBe('keep');
      } finally {
        other.close();
      }
    }
  });

  test('a leaf with children is put back before them: creation order survives the trip', () => {
    const s = store.create();
    const [a, b, c] = store.appendMany(s.id, [user('a'), user('b'), user('c')]).map((e) => e.id);
    store.branch(s.id, a!);
    const d = store.append(s.id, user('d')).id;
    store.branch(s.id, b!);
    const text = exportPiSession(store, s.id);
    // c names its parent b before b's line: pi links by id; the parser pulls b forward again.
    expect(
      jsonLines(text)
        .map((l) => l.id)
        .slice(1),
    ).toEqual([a, c, d, b]);
    const parsed = parsePiSession(text);
    expect(parsed.leafId).toBe(b);
    expect(parsed.entries.map((e) => e.id)).toEqual([...store.allEntries(s.id)].map((e) => e.id));
  });

  test('a session without a leaf exports with pi’s default leaf, its last entry', () => {
    const s = store.create();
    store.appendMany(s.id, [user('a'), user('b')]);
    store.branch(s.id, null);
    const parsed = parsePiSession(exportPiSession(store, s.id));
    expect(parsed.leafId).toBe([...store.allEntries(s.id)].at(-1)!.id);
  });

  test('serializing refuses a summary whose leaf is not among the entries', () => {
    const s = store.create();
    expect(() => serializePiSession({ ...store.get(s.id), leafId: 'ghost' }, [])).toThrow(/leaf ghost .* is not among its entries/);
  });
});

describe('any session survives a trip through a pi file', () => {
  type Op =
    | { kind: 'append'; role: 'user' | 'assistant'; text: string }
    | { kind: 'branch'; pick: number | null }
    | { kind: 'label'; pick: number; label: string | null }
    | { kind: 'compact'; pick: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('append' as const),
        role: fc.constantFrom('user' as const, 'assistant' as const),
        text: fc.string({ maxLength: 12 }),
      }),
      weight: 5,
    },
    { arbitrary: fc.record({ kind: fc.constant('branch' as const), pick: fc.option(fc.nat(), { nil: null, freq: 6 }) }), weight: 2 },
    {
      arbitrary: fc.record({ kind: fc.constant('label' as const), pick: fc.nat(), label: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }) }),
      weight: 2,
    },
    { arbitrary: fc.record({ kind: fc.constant('compact' as const), pick: fc.nat() }), weight: 1 },
  );

  function run(s: string, ops: Op[]): void {
    const ids: string[] = [];
    for (const o of ops) {
      if (o.kind === 'append') {
        const input: EntryInput =
          o.role === 'user'
            ? { type: 'message', message: { role: 'user', content: o.text } }
            : { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: o.text }], stopReason: 'stop' } };
        ids.push(store.append(s, input).id);
      } else if (o.kind === 'branch') {
        store.branch(s, o.pick === null || ids.length === 0 ? null : ids[o.pick % ids.length]!);
      } else if (o.kind === 'label' && ids.length) {
        ids.push(store.append(s, { type: 'label', targetId: ids[o.pick % ids.length]!, ...(o.label === null ? {} : { label: o.label }) }).id);
      } else if (o.kind === 'compact') {
        const path = store.path(s);
        if (path.length)
          ids.push(store.append(s, { type: 'compaction', summary: 'sum', firstKeptEntryId: path[o.pick % path.length]!.id, tokensBefore: 1 }).id);
      }
    }
  }

  test('ids, parents, payloads, leaf and labels (the documented exception aside)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const s = store.create({ cwd: '/p' }).id;
        run(s, ops);
        const before = shape(s);
        const all: Entry[] = [...store.allEntries(s)];
        const copy = importPiSession(store, exportPiSession(store, s)).session.id;
        const after = shape(copy);

        expect(after.entries).toEqual(before.entries);
        expect(after.leaf).toBe(before.leaf ?? all.at(-1)?.id ?? null);
        expect(resolveLabels(all)).toEqual(before.labels);
        // pi's format has no leaf pointer but "last line", so the leaf comes back just before its first
        // child (or label on it), behind what was created in between: a leaf that is a label then wins
        // over labels on its target made in that gap (the documented exception).
        const leaf = all.find((e) => e.id === before.leaf);
        expect(after.labels).toEqual(resolveLabels(leaf ? asReimported(all, leaf) : all));
      }),
      { numRuns: 60 },
    );
  });
});
