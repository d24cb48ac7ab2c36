import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { matchSnippet } from './session-reader.ts';
import { SessionStore } from './session-store.ts';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-search-'));
  store = SessionStore.open(join(dir, 'amber.db'));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (content: string) => ({ type: 'message' as const, message: { role: 'user' as const, content } });

test("a search's results say where each conversation matched: the words around it in its newest matching message", () => {
  const trip = store.create({ title: 'Weekend' });
  store.appendMany(trip.id, [user('Where should we eat in Lisbon on Saturday evening?'), user('Something else entirely.')]);
  const named = store.create({ title: 'Lisbon notes' });
  store.appendMany(named.id, [user('Nothing about the city here.')]);
  const found = store.list({ query: 'lisbon' });
  expect(found.map((s) => s.title).sort()).toEqual(['Lisbon notes', 'Weekend']);
  expect(found.find((s) => s.id === trip.id)?.match).toBe('Where should we eat in Lisbon on Saturday evening?');
  // Matched by its title only: nothing to quote.
  expect(found.find((s) => s.id === named.id)?.match).toBeUndefined();
  // The plain list quotes nothing.
  expect(store.list().every((s) => s.match === undefined)).toBe(true);
});

test('a long message is cut around the match', () => {
  const text = `${'a'.repeat(100)} the needle is here ${'b'.repeat(100)}`;
  const snippet = matchSnippet(text, 'NEEDLE');
  expect(snippet.startsWith('…')).toBe(true);
  expect(snippet.endsWith('…')).toBe(true);
  expect(snippet).toContain('the needle is here');
  expect(snippet.length).toBeLessThanOrEqual(92);
});
