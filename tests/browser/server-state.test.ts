// Server state in the window comes from main's events: the views they carry replace what the window shows.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-server-state-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

test('the status bar follows a streaming reply from the views status.changed carries, without asking status.list again', async () => {
  model.setScript([
    openAiStream({ text: Array.from({ length: 30 }, (_, i) => `tok${i} `), usage: { input: 1500, output: 45 } }, { pace: { framesPerSecond: 30 } }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  // Every request the window sends over the API socket, by channel.
  const asked: string[] = [];
  a.page.on('websocket', (ws) =>
    ws.on('framesent', (frame) => {
      if (typeof frame.payload !== 'string') return;
      const channel = (JSON.parse(frame.payload) as { channel?: string }).channel;
      if (channel) asked.push(channel);
    }),
  );
  await a.open();
  await a.page.getByTestId('new-chat').click();
  const tokens = a.page.locator('[data-testid=status-segment][data-id="core.tokens"]');
  await expect.poll(() => asked.filter((c) => c === 'chat.models').length).toBeGreaterThan(0);
  await expect.poll(() => asked.filter((c) => c === 'status.list').length).toBeGreaterThan(0);
  const before = asked.filter((c) => c === 'status.list').length;
  // A fresh conversation's bar has no tokens to count: the segment waits for the first reply.
  expect(await tokens.count()).toBe(0);

  await a.page.getByTestId('composer').fill('Stream something.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'tok3' }).waitFor();
  await expect.poll(() => tokens.textContent()).not.toBe('in 0 out 0');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'tok29' }).waitFor();
  await expect.poll(() => tokens.textContent()).toBe('in 1.5k out 45');
  expect(asked.filter((c) => c === 'status.list').length).toBe(before);
});
