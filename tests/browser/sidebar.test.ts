// The sidebar as people read it: conversations under date headings, a search that says where it matched,
// deleting the open conversation opening its neighbour, and a new conversation named by its model after
// the first reply (against the loopback model).
import { afterEach, expect, test } from 'vitest';
import type { ProviderServer, RecordedRequest } from '../fixtures/provider-server.ts';
import { openAiStream } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, type ModelRig, openModelRig } from '../fixtures/loopback-model.ts';
import { assistant, user } from './seed.ts';

const asksForTitle = (r: RecordedRequest) => JSON.stringify(r.body).includes('You name conversations');

let amber: Amber | null = null;
let rig: ModelRig | null = null;
afterEach(async () => {
  if (rig) await closeModelRig(rig, amber);
  else await amber?.close();
  amber = null;
  rig = null;
});

test('conversations sit under a date heading, a search shows its match, and deleting the open one opens its neighbour', async () => {
  const ids: string[] = [];
  amber = await startAmber({
    seed: ({ app }) => {
      for (const [title, said] of [
        ['Trams', 'Which tram goes up to the castle?'],
        ['Groceries', 'Milk, eggs and bread.'],
        ['Taxes', 'When is the deadline this year?'],
      ]) {
        const s = app.sessions.create({ title });
        app.sessions.appendMany(s.id, [user(said!), assistant(`About ${title}.`)]);
        ids.push(s.id);
      }
    },
  });
  await amber.open();
  const { page } = amber;
  const rows = page.getByTestId('session-row');
  await expect.poll(() => rows.count()).toBe(3);
  expect(await page.getByTestId('session-heading').allTextContents()).toEqual(['Today']);

  // A search by a message's words quotes them, the match marked.
  await page.getByTestId('search').fill('castle');
  await expect.poll(() => rows.count()).toBe(1);
  const match = rows.first().getByTestId('session-match');
  expect(await match.textContent()).toBe('Which tram goes up to the castle?');
  expect(await match.locator('mark').textContent()).toBe('castle');
  await amber.screenshot('sidebar-search-match');
  await page.getByTestId('search').fill('');
  await expect.poll(() => rows.count()).toBe(3);

  // Deleting the open conversation opens the one under it in the list, else the one above. (Seeded in the same
  // millisecond, the three may be listed in any order: the neighbour is read from the list as shown.)
  const order = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-session-id')));
  const at = order.indexOf(ids[1]!);
  const neighbour = order[at + 1] ?? order[at - 1];
  const titles: Record<string, string> = { [ids[0]!]: 'Trams', [ids[2]!]: 'Taxes' };
  const groceries = page.locator(`[data-testid=session-row][data-session-id="${ids[1]}"]`);
  await groceries.click();
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('Groceries');
  await groceries.hover();
  await groceries.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => rows.count()).toBe(2);
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe(titles[neighbour!]);
  await page
    .locator('[data-testid=message]')
    .filter({ hasText: `About ${titles[neighbour!]}.` })
    .waitFor();
});

test('a new conversation is named by its model after the first reply', async () => {
  rig = await openModelRig('amber-sidebar-title-');
  const model: ProviderServer = rig.model;
  model.setScript((req) => (asksForTitle(req) ? openAiStream({ text: 'Planning a Lisbon weekend' }) : openAiStream({ text: 'Here is a plan for Lisbon.' })));
  amber = await startAmber({ core: { ...coreFor(model, rig.workspace), autoTitle: true } });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Can you plan my weekend in Lisbon?');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'Here is a plan for Lisbon.' }).waitFor();
  await expect.poll(() => page.getByTestId('session-title').textContent(), { timeout: 15_000 }).toBe('Planning a Lisbon weekend');
  expect(await page.getByTestId('session-row').first().getByRole('button', { name: 'Planning a Lisbon weekend', exact: true }).count()).toBe(1);
  expect(model.requests.filter(asksForTitle)).toHaveLength(1);
});

test('Settings has a switch for generated titles, kept as the conversations.autoTitle setting', async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-conversations').click();
  const toggle = page.getByRole('switch', { name: 'Name new conversations' });
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  expect(amber.shell.app.settings.get('conversations.autoTitle')).toBe(false);
});
