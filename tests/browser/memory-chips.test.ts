// Memory chips as a user sees them: a reply whose request carried a recalled memory shows it as a chip under
// the reply; the chip opens the memory (/memory show) where command results show, from the keyboard too, and
// is still there after a restart. The memory plugin runs in its own process; the model is a loopback server.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

const FACT = 'The user indents Python with four spaces, never tabs';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-memory-chips-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

/** Keeps one memory, as the user would with /memory add, once the plugin is up. */
async function seed(shell: HeadlessShell): Promise<void> {
  const plugins = shell.app.plugins;
  if (plugins.get('memory').state !== 'active')
    await new Promise<void>((resolve) => {
      const sub = plugins.onDidChange(() => {
        if (plugins.get('memory').state !== 'active') return;
        sub.dispose();
        resolve();
      });
    });
  const added = await plugins.registries.commands.run(['memory'], ['add', FACT]);
  expect(added.output).toContain('#1');
}

test('a reply shows the memory its request carried as a chip that opens the memory, after a restart too', async () => {
  model.setScript(() => openAiStream({ text: 'Four spaces, as you prefer.' }));
  amber = await startAmber({ seed, core: coreFor(model, workspace), viewport: { width: 1100, height: 720 } });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('How should I indent this Python file?');
  await a.page.keyboard.press('Enter');
  const reply = a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Four spaces, as you prefer.' });
  const chip = reply.getByTestId('reply-source');
  await chip.filter({ hasText: `Memory: ${FACT}` }).waitFor();
  expect(await chip.count()).toBe(1);
  // The model was told the memory; nothing about sources went with it.
  const sent = model.requests.at(-1)!.bodyText;
  expect(sent).toContain(FACT);
  expect(sent).not.toContain('sources');
  await reply.screenshot({ path: docsShot('memory-chip.png'), animations: 'disabled' });

  // From the keyboard: the chip takes the focus and Enter opens the memory where command results show.
  await chip.focus();
  expect(await chip.evaluate((el) => el === document.activeElement)).toBe(true);
  await a.page.keyboard.press('Enter');
  const output = a.page.getByTestId('status-popover');
  await output.filter({ hasText: `#1 [user, global] ${FACT}` }).waitFor();
  expect(await output.textContent()).toContain('added by the user');

  // Stored with the reply: a restart shows it again, and a click opens it.
  await a.restart();
  const again = a.page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'Four spaces, as you prefer.' }).getByTestId('reply-source');
  await again.filter({ hasText: `Memory: ${FACT}` }).waitFor();
  // The memory plugin starts in its own process again: its segment says it is back.
  await a.page
    .locator('[data-testid=status-segment][data-source=memory]')
    .filter({ hasText: /^memory: 1$/ })
    .waitFor();
  await again.click();
  await a.page
    .getByTestId('status-popover')
    .filter({ hasText: `#1 [user, global] ${FACT}` })
    .waitFor();
});
