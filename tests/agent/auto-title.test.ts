// A conversation's short title, against a loopback OpenAI-compatible server: after the first reply a hidden
// request asks the conversation's model for 3–6 words, the store renames the conversation and the window
// hears session.updated; nothing of it is kept in the conversation. A title the user gave, a second reply,
// or the setting turned off asks nothing.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanTitle, TITLE_INSTRUCTIONS } from '../../src/main/agent/auto-title.ts';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, type RecordedRequest, startProviderServer } from '../fixtures/provider-server.ts';

let t: AppUnderTest;
let server: ProviderServer;
let app: App;

const asksForTitle = (r: RecordedRequest) => JSON.stringify(r.body).includes('You name conversations');

beforeEach(async () => {
  server = await startProviderServer({
    script: (req) => (asksForTitle(req) ? openAiStream({ text: 'Title: "Planning a Lisbon weekend."' }) : openAiStream({ text: 'Here is a plan for Lisbon.' })),
  });
  t = openApp({
    prefix: 'amber-auto-title-',
    before: (dir) => mkdirSync(join(dir, 'home', 'ws'), { recursive: true }),
    app: (dir) => ({
      home: join(dir, 'home'),
      workspace: join(dir, 'home', 'ws'),
      ...loopbackModel(server),
      autoTitle: true,
    }),
  });
  ({ app } = t);
});

afterEach(async () => {
  await t.close();
  await server.close();
});

const titleRequests = () => server.requests.filter(asksForTitle);
const updatedTitles = (sessionId: string) =>
  t.events.filter((e) => e.event === 'session.updated' && (e.payload as { id: string }).id === sessionId).map((e) => (e.payload as { title: string }).title);

async function reply(sessionId: string, text: string): Promise<void> {
  await app.agent.start(sessionId, text).done;
}

/**
 * A conversation that is titled after the one under test: once its title is set, any title request the
 * one under test would have made has been made, so "none was asked for" is a finding, not a race.
 */
async function control(): Promise<void> {
  const c = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  await reply(c.id, 'A control question.');
  await expect.poll(() => app.sessions.get(c.id).title).toBe('Planning a Lisbon weekend');
}
const titledOthers = () => titleRequests().filter((r) => !JSON.stringify(r.body).includes('A control question.'));

test('after the first reply the model names the conversation in a few words, and the window hears it', async () => {
  const s = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  await reply(s.id, 'Can you plan my weekend in Lisbon?');
  await expect.poll(() => app.sessions.get(s.id).title).toBe('Planning a Lisbon weekend');
  expect(updatedTitles(s.id)).toContain('Planning a Lisbon weekend');
  // One hidden request: the conversation's exchange under the title instructions, without tools.
  expect(titleRequests()).toHaveLength(1);
  const body = titleRequests()[0]!.body as { model: string; messages: { role: string; content: string }[]; tools?: unknown[] };
  expect(body.model).toBe('fixture-model');
  expect(body.messages[0]).toMatchObject({ role: 'system', content: TITLE_INSTRUCTIONS });
  expect(body.messages.at(-1)?.content).toContain('Can you plan my weekend in Lisbon?');
  expect(body.messages.at(-1)?.content).toContain('Here is a plan for Lisbon.');
  expect(body.tools ?? []).toEqual([]);
  // Nothing of it is kept in the conversation.
  expect(app.sessions.context(s.id).messages.map((m) => m.role)).toEqual(['user', 'assistant']);

  // A later reply asks nothing more.
  await reply(s.id, 'And on Sunday?');
  await control();
  expect(titledOthers()).toHaveLength(1);
});

test('a conversation the user named keeps its name, and no title is asked for', async () => {
  const s = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  app.sessions.rename(s.id, 'My trip');
  await reply(s.id, 'Can you plan my weekend in Lisbon?');
  await app.agent.start(s.id, 'Thanks.').done;
  await control();
  expect(app.sessions.get(s.id).title).toBe('My trip');
  expect(titledOthers()).toHaveLength(0);
});

test('with /set conversations.autoTitle off, conversations keep no generated title', async () => {
  const s = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  expect(await t.call('commands.run', { input: '/set conversations.autoTitle off', sessionId: s.id })).toMatchObject({ result: { kind: 'ok' } });
  await reply(s.id, 'Can you plan my weekend in Lisbon?');
  expect(await t.call('commands.run', { input: '/set conversations.autoTitle on', sessionId: s.id })).toMatchObject({ result: { kind: 'ok' } });
  await control();
  expect(app.sessions.get(s.id).title).toBe('');
  expect(titledOthers()).toHaveLength(0);
});

test("a title is the answer's first line without quotes, labels or a final stop, at most eight words", () => {
  expect(cleanTitle('Title: "Planning a Lisbon weekend."')).toBe('Planning a Lisbon weekend');
  expect(cleanTitle('\n**Debugging SQLite WAL locks**\nBecause the user asked…')).toBe('Debugging SQLite WAL locks');
  expect(cleanTitle('<think>hmm</think>Rust lifetimes explained')).toBe('Rust lifetimes explained');
  expect(cleanTitle('one two three four five six seven eight nine ten')).toBe('one two three four five six seven eight');
});

test('Settings turns titles off and on over the API, as /set does', async () => {
  expect(await t.call('conversations.settings', {})).toEqual({ autoTitle: true });
  expect(await t.call('conversations.setAutoTitle', { autoTitle: false })).toEqual({ autoTitle: false });
  expect(app.settings.get('conversations.autoTitle')).toBe(false);
  const s = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  await reply(s.id, 'Can you plan my weekend in Lisbon?');
  expect(await t.call('conversations.setAutoTitle', { autoTitle: true })).toEqual({ autoTitle: true });
  await control();
  expect(app.sessions.get(s.id).title).toBe('');
  expect(titledOthers()).toHaveLength(0);
});
