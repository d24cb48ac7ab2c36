import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { createHarness, type Harness } from '../agent/agent-harness.ts';
import { text } from '../agent/scripted-provider.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test('a run on a session changed outside Amber ends with a sentence and sends nothing to the model', async () => {
  h = createHarness([text('First answer.'), text('Never sent.')]);
  expect((await h.agent.prompt(h.sessionId, 'hi')).reason).toBe('stop');
  expect(h.provider.requests).toHaveLength(1);
  const changed = h.path().find((e) => e.type === 'message' && e.message.role === 'user')!.id;

  const db = new Database(join(h.dir, 'amber.db'));
  db.prepare(`UPDATE entries SET payload = json_set(payload, '$.message.content', 'something else') WHERE id = ?`).run(changed);
  db.close();

  // Continuing from the leaf (as regenerating does) appends nothing first: the loop itself must refuse.
  const result = await h.agent.start(h.sessionId, null).done;
  expect(result).toMatchObject({
    reason: 'error',
    error: `This conversation was changed outside Amber (entries ${changed}), so it is read-only; start a new conversation to continue.`,
  });
  expect(h.provider.requests).toHaveLength(1);
  // A new prompt is refused by the store before anything is written.
  const leaf = h.store.leaf(h.sessionId);
  expect((await h.agent.prompt(h.sessionId, 'again')).reason).toBe('error');
  expect(h.store.leaf(h.sessionId)).toBe(leaf);
  expect(h.provider.requests).toHaveLength(1);
});
