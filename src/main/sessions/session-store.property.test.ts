import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Entry, EntryInput } from '../../shared/sessions/index.ts';
import { SessionStore } from './session-store.ts';

// Random sequences of writes against a real SQLite file, checked against a model of the tree kept here.

type Op =
  | { kind: 'append'; input: EntryInput }
  | { kind: 'branch'; pick: number | null }
  | { kind: 'label'; pick: number; label: string | undefined }
  | { kind: 'compact'; pick: number }
  | { kind: 'reopen' };

const text = fc.string({ maxLength: 8 });
const appendable: fc.Arbitrary<EntryInput> = fc.oneof(
  { arbitrary: text.map((t): EntryInput => ({ type: 'message', message: { role: 'user', content: t } })), weight: 4 },
  {
    arbitrary: fc
      .tuple(text, fc.constantFrom('stop' as const, 'toolUse' as const, 'error' as const, 'aborted' as const))
      .map(([t, stopReason]): EntryInput => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: t }], stopReason } })),
    weight: 4,
  },
  {
    arbitrary: fc
      .constantFrom('p/m1', 'p/m2', 'q/m3')
      .map((m): EntryInput => ({ type: 'model_change', provider: m.split('/')[0]!, modelId: m.split('/')[1]! })),
    weight: 1,
  },
  { arbitrary: fc.constantFrom('off', 'low', 'high').map((thinkingLevel): EntryInput => ({ type: 'thinking_level_change', thinkingLevel })), weight: 1 },
  { arbitrary: text.map((t): EntryInput => ({ type: 'custom', customType: 'plugin', data: { t } })), weight: 1 },
  { arbitrary: text.map((t): EntryInput => ({ type: 'custom_message', customType: 'note', content: t, display: true })), weight: 1 },
  { arbitrary: text.map((t): EntryInput => ({ type: 'branch_summary', fromId: 'elsewhere', summary: t })), weight: 1 },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: appendable.map((input): Op => ({ kind: 'append', input })), weight: 8 },
  { arbitrary: fc.option(fc.nat(), { nil: null, freq: 8 }).map((pick): Op => ({ kind: 'branch', pick })), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('label' as const), pick: fc.nat(), label: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }) }), weight: 2 },
  { arbitrary: fc.nat().map((pick): Op => ({ kind: 'compact', pick })), weight: 2 },
  { arbitrary: fc.constant<Op>({ kind: 'reopen' }), weight: 1 },
);

/** The model: each entry's parent and its payload as first returned, and where the leaf should be. */
interface Model {
  ids: string[];
  parent: Map<string, string | null>;
  payload: Map<string, string>;
  leaf: string | null;
}

function modelPath(model: Model, leaf: string | null): string[] {
  const ids: string[] = [];
  for (let id = leaf; id !== null; id = model.parent.get(id)!) ids.unshift(id);
  return ids;
}

function reachesModel(e: Entry): boolean {
  if (e.type === 'message') {
    const stop = (e.message as { stopReason?: string }).stopReason;
    return !(e.message.role === 'assistant' && (stop === 'error' || stop === 'aborted'));
  }
  return e.type === 'custom_message' || e.type === 'branch_summary';
}

/** What reaches the model, computed from the path alone: cut at its newest compaction, failed replies out. */
function expectedContext(path: Entry[]): string[] {
  const c = path.findLastIndex((e) => e.type === 'compaction');
  let window = path;
  const head: Entry[] = [];
  if (c !== -1) {
    const compaction = path[c] as Extract<Entry, { type: 'compaction' }>;
    const k = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(k).toBeLessThan(c);
    head.push(compaction);
    window = [...path.slice(k, c), ...path.slice(c + 1)];
  }
  return [...head, ...window.filter(reachesModel)].map((e) => e.id);
}

function newestSetting(path: Entry[]) {
  const model = path.findLast((e) => e.type === 'model_change');
  const thinking = path.findLast((e) => e.type === 'thinking_level_change');
  return {
    model: model?.type === 'model_change' ? { provider: model.provider, modelId: model.modelId } : null,
    thinkingLevel: thinking?.type === 'thinking_level_change' ? thinking.thinkingLevel : null,
  };
}

function apply(store: SessionStore, sessionId: string, model: Model, o: Exclude<Op, { kind: 'reopen' }>): void {
  const write = (input: EntryInput) => {
    const before = model.leaf;
    const entry = store.append(sessionId, input);
    expect(model.parent.has(entry.id)).toBe(false);
    expect(entry.parentId).toBe(before);
    model.ids.push(entry.id);
    model.parent.set(entry.id, before);
    model.payload.set(entry.id, JSON.stringify(entry));
    model.leaf = entry.id;
  };
  switch (o.kind) {
    case 'append':
      return write(o.input);
    case 'branch': {
      const target = o.pick === null || model.ids.length === 0 ? null : model.ids[o.pick % model.ids.length]!;
      store.branch(sessionId, target);
      model.leaf = target;
      return;
    }
    case 'label':
      if (model.ids.length) write({ type: 'label', targetId: model.ids[o.pick % model.ids.length]!, ...(o.label === undefined ? {} : { label: o.label }) });
      return;
    case 'compact': {
      const path = modelPath(model, model.leaf);
      if (path.length) write({ type: 'compaction', summary: 'summary', firstKeptEntryId: path[o.pick % path.length]!, tokensBefore: 10 });
      return;
    }
  }
}

function check(store: SessionStore, sessionId: string, model: Model): void {
  // The leaf is where the model says, and it exists.
  expect(store.leaf(sessionId)).toBe(model.leaf);
  if (model.leaf !== null) expect(store.entry(sessionId, model.leaf).id).toBe(model.leaf);

  // No entry ever changed: every payload is as it was first returned, and parents are as written.
  const all = [...store.allEntries(sessionId)];
  expect(all.map((e) => e.id)).toEqual(model.ids);
  for (const entry of all) {
    expect(JSON.stringify(entry)).toBe(model.payload.get(entry.id));
    expect(entry.parentId).toBe(model.parent.get(entry.id));
  }

  // Every entry reaches a root through entries of the session, without loops.
  const byId = new Map(all.map((e) => [e.id, e]));
  for (const entry of all) {
    let steps = 0;
    for (let id: string | null = entry.parentId; id !== null; id = byId.get(id)!.parentId) {
      expect(byId.has(id)).toBe(true);
      expect(++steps).toBeLessThanOrEqual(all.length);
    }
  }

  // At the leaf and at every entry: the path is the model's, and the context is that path cut.
  for (const leaf of new Set([model.leaf, ...model.ids])) {
    const path = store.path(sessionId, leaf);
    expect(path.map((e) => e.id)).toEqual(modelPath(model, leaf));
    const context = store.context(sessionId, leaf);
    expect(context.entries.map((e) => e.id)).toEqual(expectedContext(path));
    expect({ model: context.model, thinkingLevel: context.thinkingLevel }).toEqual(newestSetting(path));
  }
}

test('random appends, branches, labels and compactions keep the tree sound and the context, built after each write and at every entry, a cut of the path', () => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
      const dir = mkdtempSync(join(tmpdir(), 'amber-store-prop-'));
      const file = join(dir, 'amber.db');
      let store = SessionStore.open(file);
      try {
        const sessionId = store.create().id;
        const model: Model = { ids: [], parent: new Map(), payload: new Map(), leaf: null };
        for (const o of ops) {
          if (o.kind === 'reopen') {
            // The leaf is persisted: a restart resumes exactly there.
            store.close();
            store = SessionStore.open(file);
          } else {
            apply(store, sessionId, model, o);
          }
          expect(store.leaf(sessionId)).toBe(model.leaf);
          // Built after every write, as a run does each turn: later builds start from the walk kept from this one.
          const path = store.path(sessionId, model.leaf);
          const context = store.context(sessionId);
          expect(context.entries.map((e) => e.id)).toEqual(expectedContext(path));
          // Entries a build read as stored (their hashes vouching for them) are what the schema makes of the same rows.
          const parsed = new Map(path.map((e) => [e.id, e]));
          expect(context.entries).toEqual(context.entries.map((e) => parsed.get(e.id)));
          expect(store.context(sessionId).integrity.ok).toBe(true);
        }
        check(store, sessionId, model);
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 200 },
  );
});
