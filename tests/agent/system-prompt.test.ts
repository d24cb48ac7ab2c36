// The system message a model receives, read off the wire of a loopback OpenAI-compatible server: the
// workspace folder, the tools offered, the project's AGENTS.md (capped with a note) and the user's own
// instructions; "View prompt" answers the same text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { PROJECT_FILE_LIMIT_BYTES } from '../../src/main/agent/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let fixture: AppUnderTest;
let dir: string;
let repo: string;
let workspace: string;
let server: ProviderServer;
let app: App;
let api: ApiRouter;

beforeEach(async () => {
  server = await startProviderServer();
  fixture = openApp({
    prefix: 'amber-sysprompt-',
    before: (d) => {
      dir = d;
      repo = join(dir, 'home', 'repo');
      workspace = join(repo, 'packages', 'app');
      mkdirSync(join(repo, '.git'), { recursive: true });
      mkdirSync(workspace, { recursive: true });
    },
    app: () => ({
      home: join(dir, 'home'),
      workspace,
      ...loopbackModel(server),
      tools: {
        list: () => [
          { name: 'read', description: 'Read a text file in the workspace.', parameters: { type: 'object', properties: {} }, readOnly: true },
          { name: 'write', description: 'Create or overwrite a file.', parameters: { type: 'object', properties: {} }, readOnly: false },
        ],
        execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }),
      },
    }),
  });
  ({ app, api } = fixture);
});

afterEach(async () => {
  await fixture.close();
  await server.close();
});

async function systemMessageOfOneTurn(): Promise<{ text: string; sessionId: string }> {
  server.setScript([openAiStream({ text: 'Hello.' })]);
  const sessionId = (await fixture.call<{ id: string }>('sessions.create', {})).id;
  const run = app.agent.start(sessionId, 'Hi');
  await run.done;
  const body = server.requests.at(-1)!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  const system = body.messages.find((m) => m.role === 'system');
  return { text: system?.content ?? '', sessionId };
}

test('the model is told its workspace, whether it is a git repository, and the tools it is offered', async () => {
  const { text } = await systemMessageOfOneTurn();
  expect(text).toContain(`Workspace folder: ${workspace}`);
  expect(text).toContain(`git repository (root: ${repo})`);
  expect(text).toMatch(/- read \(read-only\): Read a text file/);
  expect(text).toMatch(/- write: Create or overwrite/);
  expect(text).toMatch(/read a file before you edit it/);
});

test('AGENTS.md files from the git root down to the workspace are included, nearest last; CLAUDE.md only where there is no AGENTS.md', async () => {
  writeFileSync(join(repo, 'AGENTS.md'), 'ROOT RULE: use tabs.');
  writeFileSync(join(repo, 'CLAUDE.md'), 'IGNORED: AGENTS.md is here.');
  writeFileSync(join(workspace, 'CLAUDE.md'), 'APP RULE: run the tests.');
  const { text } = await systemMessageOfOneTurn();
  expect(text).toContain('ROOT RULE: use tabs.');
  expect(text).toContain('APP RULE: run the tests.');
  expect(text).not.toContain('IGNORED');
  expect(text.indexOf('ROOT RULE')).toBeLessThan(text.indexOf('APP RULE'));
});

test('a project file over the cap is cut, with a note saying so', async () => {
  writeFileSync(join(workspace, 'AGENTS.md'), `${'x'.repeat(PROJECT_FILE_LIMIT_BYTES)}TAIL-NOT-SENT`);
  const { text } = await systemMessageOfOneTurn();
  expect(text).not.toContain('TAIL-NOT-SENT');
  expect(text).toContain(`AGENTS.md was cut at ${PROJECT_FILE_LIMIT_BYTES} bytes`);
});

test('a project file that links outside the project, or is not a regular file, is left out and the turn goes on', async () => {
  writeFileSync(join(dir, 'secret.txt'), 'SECRET OUTSIDE');
  const { symlinkSync } = await import('node:fs');
  symlinkSync(join(dir, 'secret.txt'), join(workspace, 'AGENTS.md'));
  const { text } = await systemMessageOfOneTurn();
  expect(text).not.toContain('SECRET OUTSIDE');
  expect(text).toContain('Workspace folder');
});

test("the user's instructions, global and per conversation, are sent; View prompt shows the exact system message and tools", async () => {
  await api.call('instructions.set', { sessionId: null, text: 'Answer in French.' });
  const first = await systemMessageOfOneTurn();
  expect(first.text).toContain('Answer in French.');
  await api.call('commands.run', { input: '/system Call me Ada.', sessionId: first.sessionId });
  server.setScript([openAiStream({ text: 'Bonjour Ada.' })]);
  await app.agent.start(first.sessionId, 'Again').done;
  const body = server.requests.at(-1)!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  const sent = body.messages.find((m) => m.role === 'system')!.content;
  expect(sent).toContain('Call me Ada.');
  const shown = await api.call('chat.lastPrompt', { sessionId: first.sessionId });
  expect(shown.ok && (shown.value as { systemPrompt: string }).systemPrompt).toBe(sent);
  // The tools shown are the tools sent: the plugin's two and the core's (the todo tool, listed and declined while off).
  const sentTools = body.tools.map((t) => t.function.name);
  expect(sentTools).toEqual(expect.arrayContaining(['read', 'write']));
  expect(shown.ok && (shown.value as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(sentTools);
});
