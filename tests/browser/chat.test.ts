import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, jsonError, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-chat-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

const words = (n: number, prefix = 'word') => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

async function openNewChat(): Promise<Amber> {
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  await amber.page.getByTestId('new-chat').click();
  await amber.page.getByTestId('composer').waitFor();
  return amber;
}

async function send(a: Amber, text: string): Promise<void> {
  await a.page.getByTestId('composer').fill(text);
  await a.page.keyboard.press('Enter');
}

const assistantWith = (a: Amber, text: string) => a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: text });

test('start a chat and watch the reply stream in', async () => {
  model.setScript([openAiStream({ text: [...words(40), '\n\n```ts\nconst done = true;\n```\n'] }, { pace: { framesPerSecond: 25 } })]);
  const a = await openNewChat();
  await send(a, 'Tell me forty words.');
  await a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: 'Tell me forty words.' }).waitFor();
  // Mid-stream: part of the reply is on screen, and the Stop button is offered.
  const streaming = a.page.locator('[data-testid=message][data-streaming]');
  await streaming.filter({ hasText: 'word5' }).waitFor();
  expect(await streaming.textContent()).not.toContain('word39');
  await a.page.getByTestId('abort').waitFor();
  await a.screenshot('chat-streaming');
  await assistantWith(a, 'word39').waitFor();
  await a.page.locator('.markdown .hljs-keyword').first().waitFor();
  await a.page.getByTestId('send').waitFor();
  // The session took its title from the first message.
  await expect.poll(() => a.page.locator('[data-testid=session-row].is-active .session-title').textContent()).toBe('Tell me forty words.');
  expect((model.requests[0]!.body as { messages: { role: string; content: unknown }[] }).messages.at(-1)).toMatchObject({
    role: 'user',
    content: 'Tell me forty words.',
  });
  await a.screenshot('chat-streamed');
});

test('approve one tool call and deny another', async () => {
  const allowed = join(dir, 'out-a', 'a.txt');
  const denied = join(dir, 'out-b', 'b.txt');
  model.setScript([
    openAiStream({
      text: 'I will write two files.',
      toolCalls: [
        { id: 'call_a', name: 'write_file', arguments: { path: allowed, content: 'alpha' } },
        { id: 'call_b', name: 'write_file', arguments: { path: denied, content: 'beta' } },
      ],
    }),
    openAiStream({ text: 'One file written; the other was declined.' }),
  ]);
  const a = await openNewChat();
  await send(a, 'Write the two files.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'a.txt' }).waitFor();
  await a.screenshot('approval-dialog');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await dialog.filter({ hasText: 'b.txt' }).waitFor();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await assistantWith(a, 'One file written; the other was declined.').waitFor();
  const cards = a.page.getByTestId('tool-card');
  await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['ok', 'denied']);
  expect(readFileSync(allowed, 'utf8')).toBe('alpha');
  expect(existsSync(denied)).toBe(false);
  await cards.first().getByRole('button').first().click();
  await a.screenshot('tool-cards');
});

test('edit an earlier message, then switch between the branches', async () => {
  model.setScript([openAiStream({ text: 'Reply one.' }), openAiStream({ text: 'Reply two.' }), openAiStream({ text: 'Reply to the edit.' })]);
  const a = await openNewChat();
  await send(a, 'First question');
  await assistantWith(a, 'Reply one.').waitFor();
  await a.page.getByTestId('send').waitFor({ state: 'attached' });
  await send(a, 'Second question');
  await assistantWith(a, 'Reply two.').waitFor();

  // Edit the first question: a new branch from the root, with its own reply.
  const first = a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: 'First question' });
  await first.hover();
  await first.getByRole('button', { name: 'Edit message' }).click();
  await a.page.getByRole('textbox', { name: 'Edit message' }).fill('First question, edited');
  await a.page.getByRole('button', { name: 'Save & send' }).click();
  await assistantWith(a, 'Reply to the edit.').waitFor();
  await expect.poll(() => a.page.locator('[data-testid=message]').allTextContents()).toHaveLength(2);
  const edited = a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: 'First question, edited' });
  await expect.poll(() => edited.getByTestId('sibling-switcher').textContent()).toBe('2/2');
  await a.screenshot('branch-edited');

  // Back to the original: the whole original conversation returns.
  await edited.getByRole('button', { name: 'Previous version' }).click();
  await assistantWith(a, 'Reply two.').waitFor();
  await expect.poll(() => a.page.locator('[data-testid=message]').count()).toBe(4);
  // And forward again.
  await a.page
    .locator('[data-testid=message][data-role=user]')
    .filter({ hasText: 'First question' })
    .first()
    .getByRole('button', { name: 'Next version' })
    .click();
  await assistantWith(a, 'Reply to the edit.').waitFor();
  // The model saw only the edited branch.
  const lastRequest = model.requests[2]!.body as { messages: { role: string; content: unknown }[] };
  expect(JSON.stringify(lastRequest.messages)).not.toContain('Second question');
});

test('abort mid-stream keeps the partial reply, also after a reload', async () => {
  model.setScript([openAiStream({ text: words(30, 'part') }, { pace: { framesPerSecond: 20 }, stallAfter: 8 })]);
  const a = await openNewChat();
  await send(a, 'Say a lot.');
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'part4' }).waitFor();
  await a.page.getByTestId('abort').click();
  const kept = assistantWith(a, 'part4');
  await kept.waitFor();
  await kept.getByText('Stopped — the partial reply is kept.').waitFor();
  await a.screenshot('aborted');
  await a.page.reload();
  await assistantWith(a, 'part4').getByText('Stopped — the partial reply is kept.').waitFor();
});

test('a failed reply shows the error with a retry that makes a sibling', async () => {
  model.setScript([jsonError(400, 'The model fixture-model does not exist.'), openAiStream({ text: 'Second time lucky.' })]);
  const a = await openNewChat();
  await send(a, 'Hello?');
  const failed = a.page.locator('[data-testid=message][data-role=assistant]').filter({ has: a.page.locator('.msg-error') });
  await failed.waitFor();
  await a.screenshot('reply-error');
  await failed.getByRole('button', { name: 'Retry' }).click();
  const ok = assistantWith(a, 'Second time lucky.');
  await ok.waitFor();
  await expect.poll(() => ok.getByTestId('sibling-switcher').textContent()).toBe('2/2');
});

test('steer a reply while it streams', async () => {
  model.setScript([openAiStream({ text: words(20, 'slow') }, { pace: { framesPerSecond: 20 } }), openAiStream({ text: 'Steered answer.' })]);
  const a = await openNewChat();
  await send(a, 'Start slowly.');
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'slow2' }).waitFor();
  await send(a, 'Actually, be brief.');
  await assistantWith(a, 'Steered answer.').waitFor();
  await a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: 'Actually, be brief.' }).waitFor();
  await a.screenshot('steered');
});

test('a /command typed while a reply streams runs at once; the reply goes on and the model never reads it', async () => {
  model.setScript([openAiStream({ text: words(40, 'slow') }, { pace: { framesPerSecond: 20 } }), openAiStream({ text: 'Not expected.' })]);
  const a = await openNewChat();
  await send(a, 'Start slowly.');
  const streaming = a.page.locator('[data-testid=message][data-streaming]');
  await streaming.filter({ hasText: 'slow2' }).waitFor();
  await send(a, '/help');
  await a.page.getByTestId('status-output').filter({ hasText: '/set — Change a setting' }).waitFor();
  // Still the same reply, still streaming, and the command line left the box.
  expect(await streaming.count()).toBe(1);
  expect(await a.page.getByTestId('composer').inputValue()).toBe('');
  await a.page.screenshot({ path: docsShot('command-while-streaming.png'), animations: 'disabled' });
  // A slash line naming no command says so, as it does when no reply streams, and stays in the box to fix.
  await send(a, '/nosuch thing');
  await a.page.getByTestId('status-message').filter({ hasText: 'unknown command' }).waitFor();
  expect(await a.page.getByTestId('composer').inputValue()).toBe('/nosuch thing');
  await assistantWith(a, 'slow39').waitFor();
  // Had the line been steering text, a second request would carry it.
  expect(model.requests).toHaveLength(1);
  expect(JSON.stringify(model.requests[0]!.body)).not.toMatch(/\/help|nosuch/);
  expect(await a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: '/help' }).count()).toBe(0);
});

test('queue a follow-up while a reply streams; it is sent when the reply ends', async () => {
  model.setScript([openAiStream({ text: words(16, 'first') }, { pace: { framesPerSecond: 20 } }), openAiStream({ text: 'The follow-up answer.' })]);
  const a = await openNewChat();
  await send(a, 'Begin.');
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'first2' }).waitFor();
  await a.page.getByTestId('composer').fill('And then a summary.');
  await a.page.keyboard.press('Alt+Enter');
  await expect.poll(() => a.page.getByTestId('composer').inputValue()).toBe('');
  await assistantWith(a, 'The follow-up answer.').waitFor();
  const texts = await a.page.locator('[data-testid=message]').allTextContents();
  expect(texts.findIndex((t) => t.includes('first15'))).toBeLessThan(texts.findIndex((t) => t.includes('And then a summary.')));
  const second = model.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  expect(second.messages.at(-1)).toMatchObject({ role: 'user', content: 'And then a summary.' });
});

test('a reply longer than the window keeps the view at its end while it streams', async () => {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(6)}\n\n`);
  model.setScript([openAiStream({ text: paragraphs }, { pace: { framesPerSecond: 30 } })]);
  const a = await openNewChat();
  await send(a, 'Write a lot.');
  const atEnd = () =>
    a.page.getByTestId('transcript').evaluate((el) => el.scrollHeight > el.clientHeight && el.scrollHeight - el.scrollTop - el.clientHeight < 4);
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'Paragraph 15:' }).waitFor();
  await expect.poll(atEnd).toBe(true);
  await assistantWith(a, 'Paragraph 29:').waitFor();
  await expect.poll(atEnd).toBe(true);
  await a.screenshot('long-reply-end');
});
