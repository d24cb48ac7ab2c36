// Memory end to end on the real parts: the headless shell with the memory plugin in its own process, the
// OpenAI-compatible provider plugin streaming from a loopback server, and a client on the real WebSocket.
// The model asks to remember; the suggestion waits in the tray; once accepted, a new conversation's request
// carries it; with memory off, nothing is kept or sent.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import type { PanelView } from '../../src/shared/api/index.ts';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream, type RecordedRequest } from '../fixtures/provider-server.ts';
import type { WsClient } from '../fixtures/ws-client.ts';

const FACT = 'The user indents Python with four spaces, never tabs';

let h: HeadlessUnderTest;

/** The scripted model: asked to remember, it calls the remember tool; otherwise it answers in a word. */
function model(request: RecordedRequest) {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1)!;
  if (last.role === 'tool' || request.bodyText.includes('Is the task the user asked for finished?')) return openAiStream({ text: 'Noted.' });
  if (JSON.stringify(last.content).includes('Please remember'))
    return openAiStream({ toolCalls: [{ id: 'call_mem', name: 'remember', arguments: { text: FACT, kind: 'user' } }] });
  return openAiStream({ text: 'Four spaces.' });
}

beforeEach(async () => {
  h = await openHeadless({ prefix: 'amber-e2e-memory-', script: model });
});

afterEach(() => h.close());

/** Resolves once `predicate` holds for the panels and segments main holds. */
async function until(s: HeadlessShell, predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  const r = s.app.plugins.registries;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise<void>((resolve) => {
      const subs = [r.panels.onDidChange(done), r.statusSegments.onDidChange(done), r.promptBlocks.onDidChange(done), s.app.plugins.onDidChange(done)];
      const timer = setTimeout(done, 200);
      function done() {
        clearTimeout(timer);
        for (const sub of subs) sub.dispose();
        resolve();
      }
    });
  }
}

/** A new conversation's one run; answers the body of the model request it made. */
async function ask(c: WsClient, text: string): Promise<{ sessionId: string; request: RecordedRequest }> {
  const first = h.server.requests.length;
  const session = await c.call<{ id: string }>('sessions.create', { title: text.slice(0, 20) });
  await h.send(session.id, text);
  return { sessionId: session.id, request: h.server.requests[first]! };
}

const memorySegment = (s: HeadlessShell) => s.app.plugins.registries.statusSegments.get('memory')?.value.text ?? '';

test('remembered in suggest mode, a memory waits in the tray; accepted, a new conversation’s request carries it; off, nothing', async () => {
  const { shell: s, client: c } = h;
  await h.connect();
  await until(s, () => s.app.plugins.registries.providers.get('custom') !== undefined && s.app.plugins.get('memory').state === 'active', 'the plugins');

  // The model remembers; in suggest mode (the default) the memory waits for the user.
  await ask(c, 'Please remember how I indent Python.');
  await until(s, () => memorySegment(s) === 'memory: 0 (1 to review)', 'the suggestion in the status bar');
  const panel = (await c.call<PanelView[]>('panels.list')).find((p) => p.id === 'memory')!;
  const tray = panel.sections.find((sec) => sec.title === 'To review (1)')!;
  expect(tray.rows[0]).toMatchObject({ type: 'text', text: expect.stringContaining(FACT), actions: [{ id: 'accept.1' }, { id: 'dismiss.1' }] });

  // Not accepted yet: a new conversation is not told.
  const before = await ask(c, 'How should I indent this Python file?');
  expect(before.request.bodyText).not.toContain(FACT);

  // Accepted in the panel: the next new conversation's request carries it, and its stored messages do not.
  await c.call('panels.action', { panelId: 'memory', actionId: 'accept.1' });
  await until(s, () => memorySegment(s) === 'memory: 1', 'the accepted memory');
  const after = await ask(c, 'How should I indent this Python file?');
  expect(after.request.bodyText).toContain(FACT);
  expect(after.request.bodyText).toContain('Memories the user keeps from earlier conversations');
  const stored = await c.call<TranscriptPage>('sessions.page', { sessionId: after.sessionId });
  expect(JSON.stringify(stored.entries.map((e) => (e.type === 'message' ? e.message : e)))).not.toContain(FACT);
  // The reply records the memory it drew on, beside its message; the request the model got names no sources.
  const reply = stored.entries.find((e) => e.type === 'message' && e.message.role === 'assistant');
  expect(reply).toMatchObject({ sources: [{ pluginId: 'memory', id: '1', label: FACT }] });
  expect(after.request.bodyText).not.toContain('sources');
  const userEntry = stored.entries.find((e) => e.type === 'message' && e.message.role === 'user');
  expect(userEntry).not.toHaveProperty('sources');

  // Off: nothing recalled, and a new remember keeps nothing.
  const set = await c.call<{ result: { kind: string; text: string } }>('commands.run', { input: '/set memory.mode off' });
  expect(set.result).toEqual({ kind: 'ok', text: 'Memory: mode is now "off".' });
  await until(s, () => s.app.plugins.get('memory').state === 'active' && memorySegment(s) === '', 'the plugin restarted with memory off');
  const off = await ask(c, 'How should I indent this Python file?');
  expect(off.request.bodyText).not.toContain(FACT);
  const refused = await ask(c, 'Please remember how I indent Python.');
  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: refused.sessionId });
  expect(JSON.stringify(page.entries)).toContain('Memory is off (memory.mode off): nothing was kept.');
});
