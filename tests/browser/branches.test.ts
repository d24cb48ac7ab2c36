import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { type Amber, startAmber } from './harness.ts';
import { assistant, seedLinear, user } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

/**
 * A conversation whose second prompt was edited once (two versions, each with its reply), and whose
 * first reply was regenerated once, the way the app writes them: a fork at the parent each time.
 */
function seedForked(shell: HeadlessShell) {
  const store = shell.app.sessions;
  const s = store.create({ title: 'Branchy' });
  const [u1, a1a] = store.appendMany(s.id, [user('Name a colour.'), assistant('Blue, the colour of the sky.')]);
  store.branch(s.id, u1!.id);
  const [a1b] = store.appendMany(s.id, [assistant('Amber, like this app.')]);
  const [u2a, a2a] = store.appendMany(s.id, [user('Why that one?'), assistant('Because it is warm.')]);
  store.branch(s.id, a1b!.id);
  const [u2b, a2b] = store.appendMany(s.id, [user('Name a fruit instead.'), assistant('An apricot.')]);
  return { sessionId: s.id, u1: u1!, a1a: a1a!, a1b: a1b!, u2a: u2a!, a2a: a2a!, u2b: u2b!, a2b: a2b! };
}

const messageText = (app: Amber) => app.page.locator('[data-testid=message]').allTextContents();

test('switching between versions of a message, and reload keeps the branch', async () => {
  let ids!: ReturnType<typeof seedForked>;
  amber = await startAmber({ seed: (shell) => void (ids = seedForked(shell)) });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'An apricot.' }).waitFor();

  // The edited prompt shows 2/2 and the regenerated reply 2/2.
  const prompt = page.locator(`[data-entry-id="${ids.u2b.id}"]`);
  await expect.poll(() => prompt.getByTestId('sibling-switcher').textContent()).toBe('2/2');
  await expect.poll(() => page.locator(`[data-entry-id="${ids.a1b.id}"]`).getByTestId('sibling-switcher').textContent()).toBe('2/2');
  await amber.screenshot('branches-switcher');

  // ‹ goes to the first version of the prompt, and on to the newest leaf under it.
  await prompt.getByRole('button', { name: 'Previous version' }).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'Because it is warm.' }).waitFor();
  expect((await messageText(amber)).join('\n')).not.toContain('An apricot.');
  await expect.poll(() => page.locator(`[data-entry-id="${ids.u2a.id}"]`).getByTestId('sibling-switcher').textContent()).toBe('1/2');
  expect(amber.shell.app.sessions.leaf(ids.sessionId)).toBe(ids.a2a.id);

  // Reload: the same session on the same branch.
  await page.reload();
  await page.locator('[data-testid=message]').filter({ hasText: 'Because it is warm.' }).waitFor();
  await expect.poll(() => page.getByTestId('chat').getAttribute('data-leaf-id')).toBe(ids.a2a.id);

  // Restart the core on the same data: still the same session and branch.
  await amber.restart();
  await page.locator('[data-testid=message]').filter({ hasText: 'Because it is warm.' }).waitFor();
  await expect.poll(() => page.getByTestId('chat').getAttribute('data-leaf-id')).toBe(ids.a2a.id);

  // The first reply's other version: the whole conversation under it is a different branch.
  await page.locator(`[data-entry-id="${ids.a1b.id}"]`).getByRole('button', { name: 'Previous version' }).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'Blue, the colour of the sky.' }).waitFor();
  await expect.poll(async () => (await messageText(amber!)).length).toBe(2);
  await amber.screenshot('branches-after-switch');
});

test('the tree shows the whole session, highlights the active path, jumps on click and edits labels', async () => {
  let ids!: ReturnType<typeof seedForked>;
  amber = await startAmber({ seed: (shell) => void (ids = seedForked(shell)) });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'An apricot.' }).waitFor();
  await page.keyboard.press('Control+Shift+T');
  const tree = page.getByTestId('tree-view');
  await tree.waitFor();
  await expect.poll(() => tree.getByTestId('tree-node').count()).toBe(7);
  const active = await tree.locator('[data-testid=tree-node][data-active]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-id')));
  expect(active).toEqual([ids.u1.id, ids.a1b.id, ids.u2b.id, ids.a2b.id]);

  // Label a node, and see it in the tree.
  const node = tree.locator(`[data-entry-id="${ids.u2a.id}"]`);
  await node.hover();
  await node.getByRole('button', { name: 'Edit label' }).click();
  await tree.getByRole('textbox', { name: 'Label' }).fill('why-branch');
  await page.keyboard.press('Enter');
  await expect.poll(() => node.getByTestId('tree-label').textContent()).toBe('why-branch');

  // Jump to the other branch's last reply.
  await tree.locator(`[data-entry-id="${ids.a2a.id}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'Because it is warm.' }).waitFor();
  await expect.poll(() => tree.locator('[data-testid=tree-node].is-leaf').getAttribute('data-entry-id')).toBe(ids.a2a.id);
  await amber.screenshot('tree-view');

  // Reload: the label is still there and the jump holds.
  await page.reload();
  await page.locator('[data-testid=message]').filter({ hasText: 'Because it is warm.' }).waitFor();
  await page.getByTestId('toggle-tree').click();
  await expect.poll(() => page.getByTestId('tree-view').locator(`[data-entry-id="${ids.u2a.id}"]`).getByTestId('tree-label').textContent()).toBe('why-branch');
});

test('a 400-message transcript opens at its end and loads older pages on scroll up', async () => {
  let sessionId = '';
  amber = await startAmber({ seed: (shell) => void (sessionId = seedLinear(shell.app.sessions, 'Long one', 400).sessionId) });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'That is all for message 400.' }).waitFor();
  expect(await page.locator('[data-testid=message]').count()).toBeLessThan(40);
  await amber.screenshot('transcript-long');
  const transcript = page.getByTestId('transcript');
  // Scroll up until the very first question is on screen; each step waits for the page above to arrive.
  for (let i = 0; i < 200; i++) {
    if (await page.locator('[data-testid=message]').filter({ hasText: 'Question 1: how do SQLite pragmas work?' }).count()) break;
    await transcript.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid=transcript]');
      return el !== null && (el.scrollTop > 0 || !document.querySelector('.older-hint'));
    });
  }
  await page.locator('[data-testid=message]').filter({ hasText: 'Question 1: how do SQLite pragmas work?' }).waitFor();
  await amber.screenshot('transcript-top');
});

test('markdown is rendered with highlighted code, and raw HTML from a model is never markup', async () => {
  let sessionId = '';
  amber = await startAmber({
    theme: 'dark',
    seed: ({ app }) => {
      const s = app.sessions.create({ title: 'Markdown' });
      sessionId = s.id;
      app.sessions.appendMany(s.id, [
        user('Show me some code and a table.'),
        {
          type: 'message',
          message: {
            role: 'assistant',
            stopReason: 'toolUse',
            model: 'demo-model',
            content: [
              { type: 'thinking', thinking: 'The user wants code. I will list files first.' },
              { type: 'text', text: 'Let me look around first.' },
              { type: 'toolCall', id: 'call_1', name: 'list_files', arguments: { path: 'src' } },
            ],
          },
        },
        {
          type: 'message',
          message: {
            role: 'toolResult',
            toolCallId: 'call_1',
            toolName: 'list_files',
            isError: false,
            content: [{ type: 'text', text: Array.from({ length: 40 }, (_, i) => `src/file-${i}.ts`).join('\n') }],
          },
        },
        assistant(
          '## Result\n\nHere is **TypeScript**:\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b; // sum\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> and a [link](https://example.com).',
        ),
      ]);
    },
  });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.locator('.markdown h2').filter({ hasText: 'Result' }).waitFor();
  expect(await page.locator('.markdown .hljs-keyword').count()).toBeGreaterThan(0);
  expect(await page.locator('.markdown img, .markdown script').count()).toBe(0);
  await expect.poll(() => page.locator('.markdown').filter({ hasText: '<img src=x' }).count()).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('.markdown a[href="https://example.com"]').getAttribute('rel')).toContain('noopener');
  // Thinking is collapsed; the tool card shows its status and folds long output.
  expect(await page.locator('.thinking-body').count()).toBe(0);
  const card = page.getByTestId('tool-card');
  expect(await card.getAttribute('data-status')).toBe('ok');
  await expect.poll(() => card.getByRole('button', { name: 'Show all 40 lines' }).count()).toBe(1);
  await amber.screenshot('markdown-dark');
});

test('after a lost connection the page reconnects and shows what changed meanwhile', async () => {
  let ids!: ReturnType<typeof seedForked>;
  amber = await startAmber({ seed: (shell) => void (ids = seedForked(shell)) });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'An apricot.' }).waitFor();
  await amber.restartUnderPage((offline) => {
    offline.app.sessions.appendMany(ids.sessionId, [user('Written while you were away.'), assistant('And answered, too.')]);
    offline.app.sessions.create({ title: 'Made elsewhere' });
  });
  await page.locator('[data-testid=message]').filter({ hasText: 'And answered, too.' }).waitFor();
  await page.locator('[data-testid=session-row]').filter({ hasText: 'Made elsewhere' }).waitFor();
});
