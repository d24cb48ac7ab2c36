import { expect, test } from 'vitest';
import { z } from 'zod';
import type { PluginMethodTable } from '../../../shared/plugins/index.ts';
import { MethodRegistry } from './method-registry.ts';

const TABLE = {
  greet: { args: z.object({ name: z.string().min(1) }).strict(), result: z.object({ text: z.string() }) },
} satisfies PluginMethodTable;

test('a declared method is called with checked arguments and its answer is parsed', async () => {
  const registry = new MethodRegistry();
  const sent: unknown[] = [];
  registry.register('p', MethodRegistry.key('p', 'greet'), {
    call: async (args) => {
      sent.push(args);
      return { text: `hello ${(args as { name: string }).name}` };
    },
  });
  expect(await registry.call('p', TABLE, 'greet', { name: 'New York' })).toEqual({ text: 'hello New York' });
  expect(sent).toEqual([{ name: 'New York' }]);
});

test('arguments the table refuses never leave, and an answer in the wrong shape is refused', async () => {
  const registry = new MethodRegistry();
  let calls = 0;
  registry.register('p', MethodRegistry.key('p', 'greet'), {
    call: async () => {
      calls++;
      return { text: 42 };
    },
  });
  await expect(registry.call('p', TABLE, 'greet', { name: '' })).rejects.toMatchObject({ code: 'invalid_input' });
  expect(calls).toBe(0);
  await expect(registry.call('p', TABLE, 'greet', { name: 'x' })).rejects.toMatchObject({
    code: 'unavailable',
    message: expect.stringMatching(/shape Amber cannot read/),
  });
  expect(calls).toBe(1);
});

test('a method is only ever answered by the plugin that declared it, and goes with its registration', async () => {
  const registry = new MethodRegistry();
  const registration = registry.register('other', MethodRegistry.key('other', 'greet'), { call: async () => ({ text: 'forged' }) });
  await expect(registry.call('p', TABLE, 'greet', { name: 'x' })).rejects.toMatchObject({
    code: 'unavailable',
    message: expect.stringMatching(/'p' is not running/),
  });
  expect(registry.has('other', 'greet')).toBe(true);
  registration.dispose();
  expect(registry.has('other', 'greet')).toBe(false);
});

test("what the plugin's method threw reaches the caller as its sentence", async () => {
  const registry = new MethodRegistry();
  registry.register('p', MethodRegistry.key('p', 'greet'), {
    call: async () => {
      throw new Error("There is no MCP server 'nobody'.");
    },
  });
  await expect(registry.call('p', TABLE, 'greet', { name: 'x' })).rejects.toMatchObject({ code: 'unavailable', message: "There is no MCP server 'nobody'." });
});
