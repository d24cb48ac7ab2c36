// The Memory panel as a user clicks it: suggestions wait in the tray with Accept and Dismiss, kept memories
// are listed by scope and kind with Pin and Delete, and a deletion can be undone; the status bar counts them.
import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { MEMORY_EXTRACTED_TOPIC } from '../../src/shared/plugins/index.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';

let amber: Amber | null = null;

afterEach(async () => {
  await amber?.close();
  amber = null;
});

/** Resolves once the memory plugin's segment says `text`. */
async function segmentSays(shell: HeadlessShell, text: string): Promise<void> {
  const segments = shell.app.plugins.registries.statusSegments;
  const now = () => segments.get('memory')?.value.text === text;
  if (now()) return;
  await new Promise<void>((resolve) => {
    const sub = segments.onDidChange(() => {
      if (!now()) return;
      sub.dispose();
      resolve();
    });
  });
}

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
  const memory = (...args: string[]) => plugins.registries.commands.run(['memory'], args);
  await memory('add', 'Answer in British English, with short paragraphs');
  await memory('add', '--kind', 'procedure', 'Run npm run typecheck before every commit');
  await memory('pin', '1');
  plugins.events.emit(MEMORY_EXTRACTED_TOPIC, {
    sessionId: 'earlier',
    entryId: 'compaction-1',
    memories: [
      { text: 'The user deploys on Fridays only after the release checklist is signed off', kind: 'user' },
      { text: 'The staging database is refreshed from production every Monday at 06:00', kind: 'project' },
    ],
  });
  await segmentSays(shell, 'memory: 2 (2 to review)');
}

test('the tray offers Accept and Dismiss; a kept memory can be pinned, deleted and brought back', async () => {
  amber = await startAmber({ seed, viewport: { width: 1280, height: 900 } });
  const a = amber;
  await a.open();
  await a.page.locator('[data-testid=status-segment][data-source=memory]').filter({ hasText: 'memory: 2 (2 to review)' }).waitFor();
  await a.page.getByTestId('toggle-panels').click();
  const panel = a.page.locator('[data-testid=plugin-panel][data-plugin=memory]');
  await panel.getByRole('heading', { name: 'To review (2)' }).waitFor();
  const tray = panel.getByTestId('panel-item').filter({ hasText: 'deploys on Fridays' });
  await tray.getByRole('button', { name: 'Accept' }).waitFor();
  await panel.getByRole('button', { name: 'Pause recall' }).waitFor();
  await panel.screenshot({ path: docsShot('memory-panel.png'), animations: 'disabled' });

  // Accepted: out of the tray, into the list; dismissed: gone.
  await tray.getByRole('button', { name: 'Accept' }).click();
  await panel.getByRole('heading', { name: 'To review (1)' }).waitFor();
  await panel.getByRole('heading', { name: 'global · user' }).waitFor();
  await panel.getByTestId('panel-item').filter({ hasText: 'staging database' }).getByRole('button', { name: 'Dismiss' }).click();
  await panel.getByRole('heading', { name: /To review/ }).waitFor({ state: 'detached' });
  await a.page
    .locator('[data-testid=status-segment][data-source=memory]')
    .filter({ hasText: /^memory: 3$/ })
    .waitFor();

  // Deleted with undo.
  const typecheck = panel.getByTestId('panel-item').filter({ hasText: 'npm run typecheck' });
  await typecheck.getByRole('button', { name: 'Delete' }).click();
  const undo = panel.getByTestId('panel-item').filter({ hasText: 'Deleted: Run npm run typecheck' });
  await undo.getByRole('button', { name: 'Undo' }).click();
  await undo.waitFor({ state: 'detached' });
  await typecheck.getByRole('button', { name: 'Pin' }).waitFor();
  expect((await a.shell.app.plugins.registries.commands.run(['memory'], ['list'])).output.split('\n')).toHaveLength(3);
});
