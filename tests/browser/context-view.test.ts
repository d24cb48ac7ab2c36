// The Context view as a user meets it: View prompt → "Context now" lists what the next request carries (old
// tool output hidden, the compaction's summary first), and "Restore full history" goes back to before the summary.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';
import { layeredReply } from '../context/layered-model.ts';
import type { ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-context-view-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A conversation that read four files, each about 600 tokens, with the newest 500 tokens of output kept whole. */
function seed(shell: HeadlessShell): string {
  shell.app.settings.set('context.maskAfterTokens', 500);
  shell.app.settings.set('context.maskBatchTokens', 250);
  const s = shell.app.sessions.create({ title: 'Reading the notes', cwd: workspace });
  const entries: EntryInput[] = [{ type: 'message', message: { role: 'user', content: 'Read the four notes and tell me what they say.' } }];
  ['monday', 'tuesday', 'wednesday', 'thursday'].forEach((day, i) => {
    entries.push({
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: `c${i}`, name: 'read', arguments: { path: `${day}.md` } }],
        stopReason: 'toolUse',
        usage: zero,
      },
    });
    entries.push({
      type: 'message',
      message: { role: 'toolResult', toolCallId: `c${i}`, toolName: 'read', content: [{ type: 'text', text: `${day} note. `.repeat(200) }], isError: false },
    });
  });
  entries.push({
    type: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'The notes list a meeting each day.' }], stopReason: 'stop', usage: zero },
  });
  shell.app.sessions.appendMany(s.id, entries);
  return s.id;
}

test('Context now shows hidden tool output and the summary of a compaction; Restore full history brings the whole conversation back', async () => {
  // Classify, then extract on the same prefix: the model answers by rules it can see in the request.
  model.setScript((r) => layeredReply(r));
  let sessionId = '';
  // A small window, so /compact has older messages to summarise (it keeps the newest third of the window).
  const core = coreFor(model, workspace);
  const resolve = core.resolveProvider!;
  core.resolveProvider = async (ref) => {
    const resolved = await resolve(ref);
    return { ...resolved, model: { ...resolved.model, contextWindow: 6000 } };
  };
  amber = await startAmber({ core, seed: (shell) => void (sessionId = seed(shell)) });
  const { page } = amber;
  await amber.open();
  await page.getByTestId('session-row').first().click();
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'The notes list a meeting each day.' }).waitFor();

  // Before any compaction: the oldest reads are hidden, the newest whole.
  await page.getByTestId('view-prompt').click();
  await page.getByTestId('prompt-tab-context').click();
  const items = page.getByTestId('context-items');
  await items.waitFor();
  expect(await items.locator('[data-state=masked]').count()).toBeGreaterThanOrEqual(2);
  expect(await items.locator('[data-state=kept]').filter({ hasText: 'Tool result' }).count()).toBeGreaterThanOrEqual(1);
  expect(await page.getByTestId('context-totals').textContent()).toMatch(/of the model’s 6,000-token window/);
  await page.keyboard.press('Escape');

  // /compact: classify and extract go to the model, and the view starts with the structured summary.
  await page.getByTestId('composer').fill('/compact');
  await page.keyboard.press('Enter');
  await expect.poll(() => model.requests.length).toBe(2);
  await expect.poll(() => amber!.shell.app.sessions.path(sessionId).some((e) => e.type === 'compaction')).toBe(true);
  await page.getByTestId('view-prompt').click();
  await page.getByTestId('prompt-tab-context').click();
  const compaction = page.getByTestId('context-compaction');
  await compaction.waitFor();
  expect(await compaction.textContent()).toContain('Port the parser');
  expect(await items.locator('[data-state=summary]').count()).toBe(1);
  await page.screenshot({ path: docsShot('context-view.png') });

  await page.getByTestId('context-restore').click();
  await page.getByTestId('prompt-viewer').waitFor({ state: 'detached' });
  await page.getByTestId('toast').filter({ hasText: 'The whole history is back' }).waitFor();
  // The branch is back before the compaction; the compaction stays in the tree.
  const path = amber.shell.app.sessions.path(sessionId);
  expect(path.some((e) => e.type === 'compaction')).toBe(false);
  expect(path.filter((e) => e.type === 'message' && e.message.role === 'toolResult')).toHaveLength(4);
  expect(amber.shell.app.sessions.tree(sessionId).length).toBeGreaterThan(0);
  await page.getByTestId('view-prompt').click();
  await page.getByTestId('prompt-tab-context').click();
  await items.waitFor();
  expect(await page.getByTestId('context-compaction').count()).toBe(0);
});
