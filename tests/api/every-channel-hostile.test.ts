// Every channel of the window's API, the new ones included, refuses input that is not its shape with a clear
// invalid_input, before any handler runs: no throw reaches the transport, and the data on disk is unchanged.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CHANNEL_NAMES } from '../../src/shared/api/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let fixture: AppUnderTest;
let sessionId: string;

beforeAll(async () => {
  fixture = openApp({ prefix: 'amber-every-channel-', app: (dir) => ({ dataDir: dir }) });
  sessionId = (await fixture.call<{ id: string }>('sessions.create', { title: 'Keep me' })).id;
  fixture.app.sessions.append(sessionId, { type: 'message', message: { role: 'user', content: 'hello' } });
});

afterAll(() => fixture.close());

/** Inputs no channel takes: not an object at all. */
const NOT_AN_OBJECT: readonly unknown[] = ['x', 42, true, [1, 2], 'x'.repeat(100_000)];

test.each(CHANNEL_NAMES.map((channel) => [channel]))('%s refuses input that is not an object', async (channel) => {
  for (const input of NOT_AN_OBJECT) {
    const result = await fixture.result(channel, input);
    expect(result.ok, `${channel} took ${JSON.stringify(input).slice(0, 40)}`).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid_input');
  }
});

test('after every channel was sent junk, the conversation on disk is as it was', async () => {
  const got = await fixture.call<{ title: string; entryCount?: number }>('sessions.get', { sessionId });
  expect(got.title).toBe('Keep me');
  expect(fixture.app.sessions.path(sessionId).map((e) => (e.type === 'message' ? e.message.content : null))).toEqual(['hello']);
});
