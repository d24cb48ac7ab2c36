// The Evals view as a user meets it: Ctrl+Shift+E lists the evals `amber eval` ran; one shows a table per
// model with its pass rate and interval, the tasks with pass^k and the flaky ones, and its runs, each opening
// its conversation.
import { afterEach, expect, test } from 'vitest';
import { seedEval } from '../fixtures/eval-records.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('Ctrl+Shift+E shows the eval with its models, tasks and runs; Open goes to the run’s conversation', async () => {
  let opened = '';
  amber = await startAmber({
    seed: (shell) => {
      const s = shell.app.sessions.create({ title: 'Eval sample: edit-greeting (openai/gpt-5 #2)' });
      shell.app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'Change greet.sh so that it prints exactly: hello, world' } });
      opened = s.id;
      seedEval(shell.app.dataDir, {
        evalId: 'eval-1',
        suite: 'sample',
        models: ['openai/gpt-5', 'anthropic/claude-sonnet-4-5'],
        tasks: ['edit-greeting', 'read-version', 'list-without-asking', 'write-notes'],
        attempts: 3,
        // gpt-5 fails edit-greeting once (flaky); claude fails write-notes every time.
        passes: (task, model, attempt) =>
          !(model === 'openai/gpt-5' && task === 'edit-greeting' && attempt === 2) && !(model.startsWith('anthropic') && task === 'write-notes'),
        sessionOf: (task, model, attempt) => (task === 'edit-greeting' && model === 'openai/gpt-5' && attempt === 2 ? opened : `missing-${task}-${attempt}`),
      });
    },
  });
  const { page } = amber;
  await amber.open();
  await page.keyboard.press('Control+Shift+E');
  const models = page.getByTestId('eval-models');
  await models.waitFor();
  const gpt = models.locator('tbody tr').filter({ hasText: 'openai/gpt-5' });
  expect(await gpt.textContent()).toContain('92% (11/12)');
  expect(await gpt.locator('td').nth(1).textContent()).toBe('3/4');
  const claude = models.locator('tbody tr').filter({ hasText: 'anthropic/claude-sonnet-4-5' });
  expect(await claude.textContent()).toContain('75% (9/12)');
  const flaky = page.getByTestId('eval-tasks').locator('tr[data-task=edit-greeting]').filter({ hasText: 'openai/gpt-5' });
  expect(await flaky.textContent()).toContain('flaky');
  const runs = page.getByTestId('eval-runs');
  expect(await runs.locator('li').count()).toBe(24);
  const failed = runs.locator('li[data-run="edit-greeting#2"]').filter({ hasText: 'openai/gpt-5' });
  expect(await failed.textContent()).toContain('npm test: 2 tests failed');
  await page.screenshot({ path: docsShot('evals-view.png') });

  await failed.getByTestId('eval-open-run').click();
  await page.getByTestId('evals-view').waitFor({ state: 'detached' });
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('Eval sample: edit-greeting (openai/gpt-5 #2)');
});

test('with no eval yet, the view says how to run one', async () => {
  amber = await startAmber();
  await amber.open();
  await amber.page.keyboard.press('Control+Shift+E');
  expect(await amber.page.getByTestId('evals-empty').textContent()).toContain('npm run amber -- eval evals/sample');
});
