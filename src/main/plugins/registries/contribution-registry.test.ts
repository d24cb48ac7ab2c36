import { expect, test } from 'vitest';
import { AllowanceRegistry } from './allowance-registry.ts';
import { StatusSegmentRegistry } from './status-segment-registry.ts';
import { ToolRegistry } from './tool-registry.ts';

test('register returns the only handle that removes the entry, and a taken key is refused', () => {
  const tools = new ToolRegistry();
  let changes = 0;
  tools.onDidChange(() => changes++);
  const spec = { name: 'echo', description: '', parameters: {}, readOnly: true };
  const d = tools.register('a', 'echo', { spec, execute: async () => ({ content: [], isError: false }) });
  expect(() => tools.register('b', 'echo', { spec, execute: async () => ({ content: [], isError: false }) })).toThrow(/already registered by the plugin 'a'/);
  expect(tools.specs()).toEqual([spec]);
  d.dispose();
  d.dispose();
  expect(tools.size).toBe(0);
  expect(changes).toBe(2);
});

test('a tool that is gone or throws answers an error output instead of throwing', async () => {
  const tools = new ToolRegistry();
  expect(await tools.execute('nope', {})).toMatchObject({ isError: true });
  tools.register('a', 'bad', {
    spec: { name: 'bad', description: '', parameters: {}, readOnly: false },
    execute: async () => {
      throw new Error('The plugin stopped.');
    },
  });
  expect(await tools.execute('bad', {})).toEqual({ content: [{ type: 'text', text: 'The plugin stopped.' }], isError: true });
});

test('only the owning plugin may update a segment, and an update keeps the registration', () => {
  const segments = new StatusSegmentRegistry();
  const d = segments.register('a', 's', { id: 's', text: 'one', priority: 0 });
  expect(() => segments.update('b', { id: 's', text: 'x', priority: 0 })).toThrow(/has no status segment 's'/);
  segments.update('a', { id: 's', text: 'two', priority: 0 });
  expect(segments.list()).toEqual([{ id: 's', text: 'two', priority: 0, pluginId: 'a' }]);
  d.dispose();
  expect(segments.list()).toEqual([]);
});

test("an allowance's check updates the spend, limit and reset it shows, never what it declared it guards", async () => {
  const allowances = new AllowanceRegistry();
  allowances.register('budget', 'day', {
    id: 'day',
    scope: '*',
    limit: 5,
    unit: 'usd',
    spent: 0,
    period: 'day',
    check: async () => ({ allowed: false, reason: 'The daily budget of $5 is used up.', spent: 5.5, limit: 5, resetsAt: 1_800_000_000_000 }),
  });
  expect(await allowances.check({ providerId: 'p', modelId: 'm' })).toEqual({
    allowed: false,
    allowanceId: 'day',
    reason: 'The daily budget of $5 is used up.',
  });
  expect(allowances.list()).toEqual([
    { id: 'day', scope: '*', limit: 5, unit: 'usd', spent: 5.5, period: 'day', resetsAt: 1_800_000_000_000, pluginId: 'budget' },
  ]);
});

test('an allowance that answers it limits nothing is marked inactive until a check answers without it', async () => {
  const allowances = new AllowanceRegistry();
  let limitsNothing = true;
  let changes = 0;
  allowances.onDidChange(() => changes++);
  allowances.register('budget', 'budget', {
    id: 'budget',
    scope: '*',
    limit: 100,
    unit: '%',
    spent: 0,
    inactive: true,
    check: async () => (limitsNothing ? { allowed: true, spent: 0, inactive: true } : { allowed: true }),
  });
  expect(allowances.list()[0]!.inactive).toBe(true);
  changes = 0;
  // Still inactive, and the same figure spent: nothing changed, so nobody is told.
  await allowances.check({ providerId: 'p', modelId: 'm' });
  expect(allowances.list()[0]!.inactive).toBe(true);
  expect(changes).toBe(0);
  limitsNothing = false;
  await allowances.check({ providerId: 'p', modelId: 'm' });
  expect(allowances.list()[0]).not.toHaveProperty('inactive');
  expect(changes).toBe(1);
});

test('an allowance that calls itself inactive still blocks the call it refuses, and is shown from then on', async () => {
  const allowances = new AllowanceRegistry();
  allowances.register('sly', 'sly', {
    id: 'sly',
    scope: '*',
    limit: 1,
    unit: 'calls',
    spent: 0,
    inactive: true,
    check: async () => ({ allowed: false, reason: 'No.', inactive: true }),
  });
  expect(await allowances.check({ providerId: 'p', modelId: 'm' })).toEqual({ allowed: false, allowanceId: 'sly', reason: 'No.' });
  expect(allowances.list()[0]).not.toHaveProperty('inactive');
});
