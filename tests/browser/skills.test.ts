// Skills as a user meets them: /skills lists yours and the workspace's one waiting for a confirmation;
// /skills confirm offers it; a message makes the model load the skill on demand, and its card shows the body.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

function writeSkill(root: string, name: string, description: string, body: string): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-skills-'));
  writeSkill(join(workspace, '.amber', 'skills'), 'release-notes', 'Write release notes from the git log.', '1. Read the log.\n2. Group by feature.');
});
afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

async function run(a: Amber, line: string): Promise<void> {
  await a.page.getByTestId('composer').fill(line);
  await a.page.keyboard.press('Enter');
}

test('/skills lists the skills and the workspace one waiting; once confirmed the model loads it on demand', async () => {
  const systems: string[] = [];
  model.setScript((request) => {
    const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
    systems.push(String(messages[0]?.content ?? ''));
    return messages.at(-1)?.role === 'tool'
      ? openAiStream({ text: 'Loaded the release-notes skill; reading the log next.' })
      : openAiStream({ toolCalls: [{ id: 'call_skill', name: 'skill', arguments: { name: 'release-notes' } }] });
  });
  amber = await startAmber({
    core: coreFor(model, workspace),
    viewport: { width: 1120, height: 680 },
    seed: (shell) => writeSkill(join(shell.app.dataDir, 'skills'), 'haiku', 'Answer in a haiku.', 'Count 5-7-5.'),
  });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await run(a, '/skills');
  const output = a.page.getByTestId('status-popover');
  await output.waitFor();
  const text = (await output.textContent()) ?? '';
  expect(text).toContain('• haiku (yours, skills/haiku) — Answer in a haiku. On.');
  expect(text).toMatch(/Waiting for your confirmation[^]*• release-notes \(this workspace, \.amber\/skills\/release-notes\)/);
  await output.screenshot({ path: docsShot('skills-command.png'), animations: 'disabled' });

  await run(a, '/skills confirm release-notes');
  await expect.poll(() => a.page.getByTestId('status-message').textContent()).toMatch(/Confirmed release-notes/);

  await run(a, 'Write the release notes.');
  const card = a.page.locator('[data-testid=tool-card][data-tool=skill]');
  await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
  await expect.poll(() => card.getByTestId('tool-output-text').textContent()).toContain('2. Group by feature.');
  expect(systems[0]).toContain('- release-notes: Write release notes from the git log.');
  expect(systems[0]).toContain('- haiku: Answer in a haiku.');
  expect(systems[0]).not.toContain('Group by feature');
  await a.page.getByText('Loaded the release-notes skill').waitFor();
  await a.screenshot('skills-loaded');
  await card.screenshot({ path: docsShot('skill-tool.png'), animations: 'disabled' });
});

test('Settings lists the skills with a switch; off takes one out of the prompt; the workspace one waits until confirmed there', async () => {
  const systems: string[] = [];
  model.setScript((request) => {
    systems.push(String((request.body as { messages: { content: unknown }[] }).messages[0]?.content ?? ''));
    return openAiStream({ text: 'ok' });
  });
  amber = await startAmber({
    core: coreFor(model, workspace),
    viewport: { width: 1120, height: 760 },
    seed: (shell) => {
      writeSkill(join(shell.app.dataDir, 'skills'), 'haiku', 'Answer in a haiku.', 'Count 5-7-5.');
      writeSkill(join(shell.app.dataDir, 'skills'), 'changelog', 'Keep the changelog in order.', 'Newest first.');
    },
  });
  const { page, shell } = amber;
  await amber.open();
  await page.getByTestId('new-chat').click();
  await run(amber, 'hello');
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'ok' }).waitFor();
  expect(systems[0]).toContain('- haiku: Answer in a haiku.');

  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Conversations and tools', exact: true }).click();
  const section = page.getByTestId('settings-skills');
  const haiku = section.locator('[data-testid=skill-row][data-skill=haiku]');
  const toggle = haiku.getByTestId('skill-enabled');
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  await expect.poll(() => section.locator('[data-testid=skill-row][data-skill=release-notes]').getAttribute('data-state')).toBe('waiting');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  expect(shell.app.settings.get('skills.off')).toEqual(['haiku']);
  expect(await seriousViolations(page, '[data-testid=settings-skills]')).toEqual([]);
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: docsShot('skills-settings.png'), animations: 'disabled' });
  // Confirmed from Settings: the workspace skill gets its switch, on.
  const release = section.locator('[data-testid=skill-row][data-skill=release-notes]');
  await release.getByTestId('skill-confirm').click();
  await expect.poll(() => release.getAttribute('data-state')).toBe('on');
  expect(await release.getByTestId('skill-enabled').getAttribute('aria-checked')).toBe('true');

  await page.getByTestId('close-settings').click();
  await run(amber, 'again');
  await expect.poll(() => systems.length).toBe(2);
  expect(systems[1]).not.toContain('- haiku:');
  expect(systems[1]).toContain('- changelog: Keep the changelog in order.');
  expect(systems[1]).toContain('- release-notes: Write release notes from the git log.');
});
