// Messages sent while a reply streams — steering (Enter) and follow-ups (Alt+Enter) — carry the message box's
// attachments as a sent message does: images stored as blobs and sent as image parts, text files as text with
// their name. Their attachments are checked at the channel the same way, before anything is queued: a refused
// one queues nothing, and the run goes on as if it had not been sent.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { type Script, ScriptedProvider, text } from '../agent/scripted-provider.ts';
import type { AppUnderTest } from '../fixtures/app-under-test.ts';
import { openScriptedApp } from '../fixtures/open-scripted-app.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = (dataUrl: string) => ({ kind: 'image', name: 'photo.png', dataUrl });
const notes = { kind: 'text', name: 'notes.md', text: '- ship the release' };

let t: AppUnderTest;
let provider: ScriptedProvider;
let sessionId: string;
/** Lets the first reply finish; until then the run streams and takes steering and follow-ups. */
let release: () => void;
let streaming: Promise<void>;

/** A reply that starts streaming, then waits to be released before it finishes with `words`. */
function held(words: string, started: () => void, gate: Promise<void>): Script {
  return async function* (request, signal) {
    started();
    await gate;
    yield* text(words)(request, signal);
  };
}

beforeEach(async () => {
  provider = new ScriptedProvider();
  t = openScriptedApp(provider, { prefix: 'amber-queued-attachments-' });
  sessionId = (await t.call<{ id: string }>('sessions.create', {})).id;
  let started!: () => void;
  streaming = new Promise((res) => (started = res));
  const gate = new Promise<void>((res) => (release = res));
  provider.push(held('First.', started, gate));
});

afterEach(() => t.close());

function blobCount(): number {
  const db = new Database(join(t.dataDir, 'amber.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM blobs').pluck().get() as number;
  } finally {
    db.close();
  }
}

const userContents = () => t.app.sessions.path(sessionId).flatMap((e) => (e.type === 'message' && e.message.role === 'user' ? [e.message.content] : []));

test('a steered message carries an image and a follow-up a text file: both stored, both sent to the model', async () => {
  provider.push(text('Second.'), text('Third.'));
  await t.call('chat.send', { sessionId, text: 'go' });
  await streaming;
  expect(await t.call('chat.steer', { sessionId, text: 'look at this', attachments: [image(`data:image/png;base64,${PNG}`)] })).toEqual({ queued: true });
  // Words are not needed when something is attached.
  expect(await t.call('chat.followUp', { sessionId, text: '', attachments: [notes] })).toEqual({ queued: true });
  release();
  await vi.waitFor(() => expect(t.app.agent.isRunning(sessionId)).toBe(false));

  const [, steered, followed] = userContents();
  expect(steered).toEqual([
    { type: 'text', text: 'look at this' },
    { type: 'image', mimeType: 'image/png', blob: expect.stringMatching(/^[0-9a-f]{64}$/) },
  ]);
  expect(followed).toEqual([{ type: 'text', text: 'Attached file notes.md:\n```\n- ship the release\n```', attachment: 'notes.md' }]);
  expect(blobCount()).toBe(1);
  expect(provider.requests).toHaveLength(3);
  expect(provider.requests[1]!.messages.at(-1)).toMatchObject({
    role: 'user',
    content: [
      { type: 'text', text: 'look at this' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ],
  });
  expect(provider.requests[2]!.messages.at(-1)).toMatchObject({
    role: 'user',
    content: [{ type: 'text', text: expect.stringContaining('- ship the release') }],
  });
});

test('hostile: a fake image, a file path, or nothing at all is refused at the channel and queues nothing', async () => {
  await t.call('chat.send', { sessionId, text: 'go' });
  await streaming;
  const words = Buffer.from('Dear diary, this is not a picture.').toString('base64');
  for (const channel of ['chat.steer', 'chat.followUp']) {
    const fake = await t.refused(channel, { sessionId, text: 'see this', attachments: [image(`data:image/png;base64,${words}`)] });
    expect(fake).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('is not a PNG, JPEG, WebP or GIF image') });
    const path = await t.refused(channel, { sessionId, text: 'see this', attachments: [{ kind: 'image', name: 'x.png', path: '/etc/passwd' }] });
    expect(path.code).toBe('invalid_input');
    expect(await t.refused(channel, { sessionId, text: '' })).toMatchObject({ code: 'invalid_input' });
    expect(await t.refused(channel, { sessionId, text: 'many', attachments: Array.from({ length: 11 }, () => notes) })).toMatchObject({
      code: 'invalid_input',
    });
  }
  release();
  await vi.waitFor(() => expect(t.app.agent.isRunning(sessionId)).toBe(false));
  // Only the first message and its reply: nothing refused was queued, stored or sent.
  expect(userContents()).toEqual(['go']);
  expect(provider.requests).toHaveLength(1);
  expect(blobCount()).toBe(0);
  // With no reply streaming, an attachment is not queued either: the window keeps it for a message of its own.
  expect(await t.refused('chat.steer', { sessionId, text: '', attachments: [notes] })).toMatchObject({ code: 'conflict' });
});
