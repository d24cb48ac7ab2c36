// What the model is told, as the user sees and shapes it: instructions in Settings, /system, and View prompt.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-prompt-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

test('instructions from Settings and /system reach the model, and View prompt shows the system message sent', async () => {
  model.setScript([openAiStream({ text: 'Noted.' }), openAiStream({ text: 'Still noted.' })]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-conversations').click();
  await a.page.getByTestId('instructions-global').fill('Always answer in haiku.');
  await a.page.getByTestId('instructions-global-save').click();
  await a.page.getByTestId('close-settings').click();

  await a.page.getByTestId('composer').fill('/system Call me Ada.');
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('status-message').filter({ hasText: 'instructions for this conversation' }).waitFor();
  await a.page.getByTestId('composer').fill('Hello');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Noted.' }).waitFor();
  const sent = (model.requests[0]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'system')!.content;
  expect(sent).toContain('Always answer in haiku.');
  expect(sent).toContain('Call me Ada.');
  expect(sent).toContain(`Workspace folder: ${workspace}`);

  await a.page.getByTestId('view-prompt').click();
  const shown = a.page.getByTestId('prompt-system');
  await shown.waitFor();
  expect(await shown.textContent()).toBe(sent);
  expect(await a.page.getByTestId('prompt-tools').textContent()).toContain('write_file');
  await a.screenshot('view-prompt');
  await a.page.keyboard.press('Escape');
  await a.page.getByTestId('prompt-viewer').waitFor({ state: 'detached' });
});
