// End to end on the real parts: the headless shell with its bundled plugins in their own processes, the
// OpenAI-compatible provider plugin streaming from a loopback server, the workspace tools under the policy,
// and a client on the real WebSocket. Nothing is stubbed but the model's words.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Entry, TranscriptPage, TreeNode } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { providerReady } from '../fixtures/provider-ready.ts';
import { openAiStream } from '../fixtures/provider-server.ts';

let h: HeadlessUnderTest;

const roleOf = (e: Entry) => (e.type === 'message' ? e.message.role : e.type);

beforeEach(async () => {
  h = await openHeadless({ prefix: 'amber-e2e-', before: (workspace) => writeFileSync(join(workspace, 'notes.txt'), 'the launch is on friday\n') });
});

afterEach(() => h.close());

test('a session runs end to end: provider plugin, tools, an approval, a fork from an earlier leaf, resume after restart', async () => {
  const { client: c, server } = h;

  // First-run setup: a custom OpenAI-compatible endpoint (the loopback server), no key.
  await h.connect();

  // Turn 1 reads a file (read-only: runs at once) and tries to write outside the workspace (asks: denied).
  server.setScript([
    openAiStream({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_read', name: 'read', arguments: { path: 'notes.txt' } },
        { id: 'call_write', name: 'write', arguments: { path: '../escape.txt', content: 'x' } },
      ],
      usage: { input: 50, output: 10 },
    }),
    openAiStream({ text: ['The launch ', 'is on Friday.'], usage: { input: 80, output: 6 } }),
    // The silent confirm turn after a run that used tools: the task is finished.
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'e2e' });
  const asked = c.waitFor<{ id: string; toolName: string }>('approval.requested');
  const settled = h.send(session.id, 'When is the launch?');
  const question = await asked;
  expect(question.toolName).toBe('write');
  await c.call('approvals.answer', { questionId: question.id, answer: 'deny' });
  await settled;

  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  // The run records the model it used on the branch first.
  // The confirm turn is kept as a custom entry, which the transcript does not show and the model is not sent again.
  expect(page.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant', 'toolResult', 'toolResult', 'assistant', 'custom']);
  expect(server.requests[2]!.bodyText).toContain('Is the task the user asked for finished?');
  const [readResult, writeResult] = page.entries.slice(3, 5).map((e) => (e.type === 'message' ? e.message : null)) as Array<Record<string, unknown>>;
  expect(readResult).toMatchObject({ toolName: 'read', status: 'ok' });
  expect(JSON.stringify(readResult!.content)).toContain('the launch is on friday');
  expect(writeResult).toMatchObject({ toolName: 'write', status: 'denied' });
  expect(() => readFileSync(join(h.dir, 'escape.txt'))).toThrow();
  // What the model was sent: the tools of the active plugins, and the read result in the second request.
  expect((server.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toEqual(
    expect.arrayContaining(['read', 'ls', 'find', 'grep', 'write', 'edit']),
  );
  expect(server.requests[1]!.bodyText).toContain('the launch is on friday');

  // A new run from an earlier leaf: edit the first message.
  const firstUser = page.entries[1]!;
  server.setScript(openAiStream({ text: 'Forked answer.' }));
  await h.send(session.id, 'And the demo?', { parentId: firstUser.parentId });
  const tree = await c.call<{ nodes: TreeNode[]; leafId: string | null }>('sessions.tree', { sessionId: session.id });
  expect(tree.nodes.filter((n) => n.parentId === firstUser.parentId && n.role === 'user')).toHaveLength(2);
  const leafBefore = tree.leafId;

  // Restart: the same session and leaf come back, and the provider plugin serves again.
  await h.restart();
  const again = h.client;
  const reopened = await again.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  expect(reopened.leafId).toBe(leafBefore);
  expect(reopened.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant']);
  await providerReady(h.shell, 'custom');
  server.setScript(openAiStream({ text: 'Still here.' }));
  await h.send(session.id, 'Are you there?');
  const last = await again.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  expect(last.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant', 'user', 'assistant']);
});
