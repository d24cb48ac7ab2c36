// /agents as a user meets it: typed in the message box, its list opens above the status bar (the built-ins,
// one of yours that replaces explore, and a workspace's agent waiting for a confirmation); /agents confirm
// offers it, and the list says so.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-agents-'));
  mkdirSync(join(workspace, '.amber', 'agents'), { recursive: true });
  writeFileSync(
    join(workspace, '.amber', 'agents', 'scout.md'),
    '---\nname: scout\ndescription: Maps the repository and lists its entry points.\ntools: [read, ls, find]\n---\nMap it.\n',
  );
});
afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

async function run(a: Amber, line: string): Promise<void> {
  await a.page.getByTestId('composer').fill(line);
  await a.page.keyboard.press('Enter');
}

test('/agents lists the agents and the workspace one waiting; /agents confirm offers it', async () => {
  amber = await startAmber({
    core: coreFor(model, workspace),
    viewport: { width: 1120, height: 680 },
    seed: (shell) => {
      mkdirSync(join(shell.app.dataDir, 'agents'), { recursive: true });
      writeFileSync(
        join(shell.app.dataDir, 'agents', 'explore.md'),
        '---\nname: explore\ndescription: My own explorer, with grep only.\ntools: [grep]\n---\nLook.\n',
      );
    },
  });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await run(a, '/agents');
  const output = a.page.getByTestId('status-popover');
  await output.waitFor();
  const text = (await output.textContent()) ?? '';
  expect(text).toContain('• explore (yours, ');
  expect(text).toContain('Replaces the built-in one.');
  expect(text).toContain('• general (built-in)');
  expect(text).toMatch(/Waiting for your confirmation[^]*• scout \(this workspace, \.amber\/agents\/scout\.md\)/);
  await a.screenshot('agents-command');

  await run(a, '/agents confirm scout');
  await expect.poll(() => a.page.getByTestId('status-message').textContent()).toMatch(/Confirmed scout/);
  await run(a, '/agents');
  await expect.poll(() => output.textContent()).toMatch(/• scout \(this workspace, \.amber\/agents\/scout\.md\) — Maps the repository/);
  expect(await output.textContent()).not.toContain('Waiting for your confirmation');
  expect((await a.shell.app.agentDefinitions.get('scout', workspace))?.tools).toEqual(['read', 'ls', 'find']);
});
