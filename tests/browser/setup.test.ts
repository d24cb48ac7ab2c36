// What a new user does on first start: set up a model on the first-run screen, then chat. Everything is
// real here: the bundled provider plugin in its own process streams from the loopback provider server.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createForkLauncher, type PipeFrame, type PluginLauncher } from '../../src/main/plugins/index.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;
let server: ProviderServer;
let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-setup-'));
  mkdirSync(join(dir, 'workspace'));
  server = await startProviderServer({
    script: (req) =>
      req.method === 'GET'
        ? { kind: 'json', body: { object: 'list', data: [{ id: 'loopback-chat' }] } }
        : openAiStream({ text: ['Hello ', 'from ', 'the ', 'loopback ', 'model.'] }, { pace: { framesPerSecond: 20 } }),
  });
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('set up a provider on the first-run screen, then chat with it', async () => {
  amber = await startAmber({ skipSetup: false, core: { workspace: join(dir, 'workspace') } });
  await amber.open();
  const { page } = amber;
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  await page.getByLabel('Base URL').fill(`${server.url}/v1`);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected: 1 model available.' }).waitFor();
  expect(await page.getByLabel('Model').inputValue()).toBe('loopback-chat');
  await page.getByRole('button', { name: 'Save and start' }).click();
  await page.getByTestId('sidebar').waitFor();

  // A new conversation is open with the message box focused: the user types at once, and no toast covers it.
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 5000 }).toBe('composer');
  expect(await page.getByTestId('session-row').count()).toBe(1);
  expect(await page.getByTestId('toast').count()).toBe(0);
  await amber.screenshot('setup-saved');
  await page.keyboard.type('Say hello.');
  await page.keyboard.press('Enter');
  const reply = page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Hello from the loopback model.' });
  await reply.waitFor();
  expect(await reply.locator('.model-name').textContent()).toBeTruthy();
  const chat = server.requests.find((r) => r.method === 'POST')!;
  expect(chat.body).toMatchObject({ model: 'loopback-chat' });
  await amber.screenshot('setup-then-chat');

  // A restart keeps the setup: no first-run screen, the same conversation.
  await amber.restart();
  await page.locator('[data-testid=message]').filter({ hasText: 'Hello from the loopback model.' }).waitFor();
  expect(await page.getByTestId('first-run').count()).toBe(0);
});

/**
 * Launches plugins as usual, but holds everything the plugin `id` sends (its "ready" first) until
 * `release()`: the plugin stays activating, as on a slow start. In a shared plugin host, only the lines
 * routed to `id` are held; the other plugins of the host go on.
 */
function holdPlugin(id: string): { launcher: PluginLauncher; release(): void } {
  const fork = createForkLauncher();
  let released = false;
  const waiting: (() => void)[] = [];
  const launcher: PluginLauncher = (request) => {
    const proc = fork(request);
    const held = (frame: PipeFrame) => !released && (request.pluginId === id || (request.shared === true && frame.route?.()?.pluginId === id));
    return {
      get pid() {
        return proc.pid;
      },
      get connected() {
        return proc.connected;
      },
      get congested() {
        return proc.congested;
      },
      get queuedBytes() {
        return proc.queuedBytes;
      },
      send: (message) => proc.send(message),
      onMessage: (listener) => proc.onMessage((frame) => (held(frame) ? void waiting.push(() => listener(frame)) : listener(frame))),
      onExit: (listener) => proc.onExit(listener),
      onOutput: (listener) => proc.onOutput(listener),
      disconnect: () => proc.disconnect(),
      kill: (signal) => proc.kill(signal),
    };
  };
  return {
    launcher,
    release() {
      released = true;
      for (const deliver of waiting.splice(0)) deliver();
    },
  };
}

test('a base URL typed while the provider list is still coming is kept when it arrives', async () => {
  // The list waits for the OpenAI-compatible plugin to ask the local servers; held, it arrives late.
  const held = holdPlugin('openai_compatible');
  amber = await startAmber({ skipSetup: false, core: { workspace: join(dir, 'workspace'), launchPlugin: held.launcher } });
  await amber.open();
  const { page } = amber;
  await page.getByLabel('Base URL').fill(`${server.url}/v1`);
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).waitFor();
  expect(await page.getByLabel('Base URL').inputValue()).toBe(`${server.url}/v1`);
  held.release();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected: 1 model available.' }).waitFor();
  expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/v1/models']);
});

test('a base URL field entered before the provider list came keeps what one types when the list arrives meanwhile', async () => {
  const held = holdPlugin('openai_compatible');
  amber = await startAmber({ skipSetup: false, core: { workspace: join(dir, 'workspace'), launchPlugin: held.launcher } });
  await amber.open();
  const { page } = amber;
  const field = page.getByLabel('Base URL');
  await field.focus();
  // The list arrives while the field has the caret (its local servers unasked: the plugin is held).
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).waitFor();
  await page.keyboard.type(`${server.url}/v1`);
  expect(await field.inputValue()).toBe(`${server.url}/v1`);
  held.release();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected: 1 model available.' }).waitFor();
});
