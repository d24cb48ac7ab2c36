// The plan above the composer, as a user sees it: a loopback model calls the todo tool twice, and the strip
// shows the first checklist, then updates live to the second (done struck through, the step in progress
// highlighted, "1 of 3 done"); it folds to one line; a branch without a plan shows none.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { PlanItem } from '../../src/shared/plan/index.ts';
import { openAiStream, type ProviderServer, type Reply, type Script } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

const DOCS_IMAGES = resolve(import.meta.dirname, '../../docs/images');
// The app's CSP forbids inline scripts: axe goes in through the debugger protocol.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-plan-'));
});
afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

/**
 * The agent's turns in order; requests without the agent's tools are side questions (the silent "is it
 * finished?" turn, a title) and get their own answers, so they never take a turn from the queue.
 */
function turns(replies: (() => Reply | Promise<Reply>)[]): Script {
  const queue = [...replies];
  return (request) => {
    const tools = (request.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
    if (!tools.some((tool) => tool.function.name === 'todo'))
      return openAiStream({ text: request.bodyText.includes('Is the task the user asked for finished') ? 'done' : 'Dates and time zones' });
    return (queue.shift() ?? (() => openAiStream({ text: 'Nothing more.' })))();
  };
}

const first: PlanItem[] = [
  { text: 'Find every place that parses dates', status: 'in_progress' },
  { text: 'Check each one for time zones', status: 'pending' },
  { text: 'Fix the ones that drop the zone', status: 'pending' },
];
const second: PlanItem[] = [
  { text: 'Find every place that parses dates', status: 'done' },
  { text: 'Check each one for time zones', status: 'in_progress' },
  { text: 'Fix the ones that drop the zone', status: 'pending' },
];

test('the plan shows above the composer and updates live as the model calls todo again', async () => {
  // The second todo call waits until the test has looked at the first plan.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  model.setScript(
    turns([
      () => openAiStream({ text: 'Here is my plan.', toolCalls: [{ id: 'call_plan_1', name: 'todo', arguments: { items: first } }] }),
      async () => {
        await gate;
        return openAiStream({ text: 'Found them; checking each.', toolCalls: [{ id: 'call_plan_2', name: 'todo', arguments: { items: second } }] });
      },
      () => openAiStream({ text: 'Two of the three parsers drop the zone; the third keeps it.' }),
    ]),
  );

  amber = await startAmber({
    core: coreFor(model, workspace),
    viewport: { width: 1120, height: 680 },
    seed: (shell) => shell.app.settings.set('agent.todo', true),
  });
  const { page } = amber;
  await amber.open();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Find every place that parses dates and check each for time zones.');
  await page.keyboard.press('Enter');

  const strip = page.getByTestId('plan-strip');
  await expect.poll(() => strip.getByTestId('plan-count').textContent()).toBe('0 of 3 done');
  expect(await strip.locator('[aria-current=step]').textContent()).toContain('Find every place that parses dates');
  expect(await strip.locator('s').count()).toBe(0);
  // The strip sits above the message box.
  const [stripBox, composerBox] = await Promise.all([strip.boundingBox(), page.getByTestId('composer').boundingBox()]);
  expect(stripBox!.y + stripBox!.height).toBeLessThanOrEqual(composerBox!.y);

  release();
  await expect.poll(() => strip.getByTestId('plan-count').textContent()).toBe('1 of 3 done');
  expect(await strip.locator('s').allTextContents()).toEqual(['Find every place that parses dates']);
  expect(await strip.locator('[aria-current=step]').textContent()).toContain('Check each one for time zones');
  expect(await strip.getByTestId('plan-announce').textContent()).toBe('1 of 3 done; now: Check each one for time zones');
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'the third keeps it' }).waitFor();
  await page.getByTestId('send').waitFor();
  const shot = await amber.screenshot('plan-strip');
  // docs/images/plan-strip.png is written only when asked (AMBER_DOCS_SCREENSHOT=1), so a test run leaves the docs alone.
  if (process.env.AMBER_DOCS_SCREENSHOT) {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(shot, join(DOCS_IMAGES, 'plan-strip.png'));
  }
  // No WCAG 2.1 A/AA violation in the strip (contrast of the struck and highlighted items included).
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
    const result = await axe.run(
      { include: [['[data-testid=plan-strip]']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    );
    return result.violations.map((v) => `${v.id} (${v.impact})`);
  });
  expect(violations).toEqual([]);

  // Folded: one line with the count and the step in progress.
  await strip.getByRole('button', { name: /Plan/ }).click();
  expect(await strip.locator('ol').count()).toBe(0);
  expect(await strip.locator('.plan-strip-now').textContent()).toBe('Check each one for time zones');
  await strip.getByRole('button', { name: /Plan/ }).click();
  expect(await strip.locator('li').count()).toBe(3);

  // An edit of the first message forks a branch with no plan: the strip goes away.
  model.setScript(turns([() => openAiStream({ text: 'A different question, no plan needed.' })]));
  await page.locator('[data-testid=message][data-role=user]').first().hover();
  await page.locator('[data-testid=message][data-role=user]').first().getByRole('button', { name: /edit/i }).click();
  const editBox = page.locator('.edit-box textarea');
  await editBox.fill('Just tell me the date format we use.');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'no plan needed' }).waitFor();
  await expect.poll(() => strip.count()).toBe(0);
});

test('Settings switches the todo tool on and off (Conversations and tools)', async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  const { page, shell } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Conversations and tools', exact: true }).click();
  const toggle = page.getByTestId('plan-enabled');
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  expect(shell.app.settings.get('agent.todo')).toBe(true);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  expect(shell.app.settings.get('agent.todo')).toBe(false);
});
