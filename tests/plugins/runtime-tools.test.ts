// Tools a plugin sets while it runs (ctx.setTools → HostApi.$setTools): installed through the ledger like
// declared tools, replaced as a whole, removed on switch-off; a refused set installs nothing.
import { afterEach, expect, test } from 'vitest';
import { createHarness, fixture, type Harness } from './plugin-harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const names = () =>
  h!.service.registries.tools
    .specs()
    .map((s) => s.name)
    .sort();

async function started(): Promise<Harness> {
  h = createHarness([fixture('runtime_tools')]);
  await h.service.start();
  expect(h.service.get('runtime_tools').state).toBe('active');
  return h;
}

test('tools set at run time are installed, callable in the plugin, and listed as runtime contributions', async () => {
  const { service } = await started();
  expect(await service.registries.commands.run(['runtime'], ['set', 'alpha', 'beta'])).toEqual({ output: 'set alpha beta', isError: false });
  expect(names()).toEqual(['alpha', 'beta', 'declared']);
  expect(await service.registries.tools.execute('beta', {})).toMatchObject({ content: [{ text: 'ran beta' }], isError: false });
  expect(
    service
      .get('runtime_tools')
      .contributions.filter((c) => c.runtime)
      .map((c) => c.key),
  ).toEqual(['alpha', 'beta']);
});

test('a new set replaces the previous one whole, and an empty set removes them all', async () => {
  const { service } = await started();
  await service.registries.commands.run(['runtime'], ['set', 'alpha', 'beta']);
  await service.registries.commands.run(['runtime'], ['set', 'gamma']);
  expect(names()).toEqual(['declared', 'gamma']);
  expect((await service.registries.tools.execute('alpha', {})).isError).toBe(true);
  await service.registries.commands.run(['runtime'], ['set']);
  expect(names()).toEqual(['declared']);
});

test('switching the plugin off removes its runtime tools with its declared ones', async () => {
  const { service } = await started();
  await service.registries.commands.run(['runtime'], ['set', 'alpha']);
  await service.setState('runtime_tools', false);
  expect(names()).toEqual([]);
  expect(service.ledger.size('runtime_tools')).toBe(0);
});

test('a set with a tool over the description cap is refused with the cap named, and changes nothing', async () => {
  const { service } = await started();
  await service.registries.commands.run(['runtime'], ['set', 'alpha']);
  const answer = await service.registries.commands.run(['runtime'], ['long']);
  expect(answer.isError).toBe(true);
  expect(answer.output).toMatch(/description is at most 4,096 characters/);
  expect(names()).toEqual(['alpha', 'declared']);
  expect(await service.registries.tools.execute('alpha', {})).toMatchObject({ content: [{ text: 'ran alpha' }], isError: false });
  expect(service.get('runtime_tools').state).toBe('active');
});

test('a set naming a tool another contribution holds is refused, changes nothing, and the plugin stays active', async () => {
  const { service } = await started();
  await service.registries.commands.run(['runtime'], ['set', 'alpha']);
  const answer = await service.registries.commands.run(['runtime'], ['clash']);
  expect(answer).toMatchObject({ isError: true });
  expect(answer.output).toMatch(/tools were not set: the tool 'declared' is already registered by the plugin 'runtime_tools'/);
  expect(names()).toEqual(['alpha', 'declared']);
  expect(service.get('runtime_tools').state).toBe('active');
});

test('listeners hear of a new runtime tool set, so the plugin list shows it', async () => {
  const { service } = await started();
  const heard: string[][] = [];
  const sub = service.onDidChange((info) => heard.push(info.contributions.filter((c) => c.runtime).map((c) => c.key)));
  await service.registries.commands.run(['runtime'], ['set', 'alpha']);
  sub.dispose();
  expect(heard).toContainEqual(['alpha']);
});
