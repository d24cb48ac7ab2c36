import { afterEach, expect, test } from 'vitest';
import { createHarness, fixture, type Harness } from './plugin-harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test("a plugin tool's declared path parameters reach main's tool registry", async () => {
  h = createHarness([fixture('path_tools')]);
  await h.service.start();
  expect(h.service.get('path_tools').state).toBe('active');
  expect(h.service.registries.tools.get('copy_file')?.value.spec).toMatchObject({ name: 'copy_file', readOnly: false, pathParams: ['from', 'to'] });
});

test('a plugin naming a path parameter its schema lacks fails with the reason naming pathParams', async () => {
  h = createHarness([fixture('path_tools')]);
  h.config.set('path_tools', { mode: 'wrong' });
  await h.service.start();
  const info = h.service.get('path_tools');
  expect(info.state).toBe('failed');
  expect(info.reason).toMatch(/pathParams.*destination.*does not declare/);
  expect(h.service.registries.tools.size).toBe(0);
});
