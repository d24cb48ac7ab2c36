import { expect, test } from 'vitest';
import type { ToolSpec } from '../../shared/tools/index.ts';
import type { ToolSource } from '../agent/index.ts';
import type { PluginInfo } from '../plugins/index.ts';
import { ToolCatalog } from './tool-catalog.ts';

// The catalog over a tool source and a plugin list the test changes: a plugin switched off keeps its tools named,
// unavailable with why, whether its manifest declares them or it only offered them while it ran.

const spec = (name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  name,
  description: `${name} things`,
  parameters: { type: 'object' },
  readOnly: false,
  ...extra,
});
const plugin = (id: string, name: string, on: Partial<PluginInfo> = {}) => ({ id, name, enabled: true, state: 'active', reason: null, ...on }) as PluginInfo;

test('a plugin’s tools are listed with it while it runs, and unavailable with why once it is off', async () => {
  let specs: ToolSpec[] = [spec('peek', { readOnly: true }), spec('sh', { shell: true }), spec('todo')];
  let plugins = [plugin('lab', 'Lab tools')];
  const source: ToolSource = {
    list: () => specs,
    execute: () => Promise.reject(new Error('not run here')),
    origin: (name) => (name === 'todo' ? undefined : { pluginId: 'lab', bundled: false }),
  };
  const catalog = new ToolCatalog({ tools: source, plugins: { list: () => plugins, manifestTools: () => [] } });
  expect(await catalog.list()).toEqual([
    { name: 'peek', description: 'peek things', readOnly: true, shell: false, plugin: { id: 'lab', name: 'Lab tools' }, available: true, reason: null },
    { name: 'sh', description: 'sh things', readOnly: false, shell: true, plugin: { id: 'lab', name: 'Lab tools' }, available: true, reason: null },
    { name: 'todo', description: 'todo things', readOnly: false, shell: false, plugin: null, available: true, reason: null },
  ]);

  specs = [spec('todo')];
  plugins = [plugin('lab', 'Lab tools', { enabled: false, state: 'deactivated' })];
  const off = await catalog.list();
  expect(off.map((t) => [t.name, t.available, t.reason])).toEqual([
    ['todo', true, null],
    ['peek', false, 'Lab tools is off: turn it on in Settings → Plugins.'],
    ['sh', false, 'Lab tools is off: turn it on in Settings → Plugins.'],
  ]);
  expect(off.find((t) => t.name === 'sh')?.shell).toBe(true);

  plugins = [plugin('lab', 'Lab tools', { state: 'failed', reason: 'It crashed three times in a minute' })];
  expect((await catalog.list()).find((t) => t.name === 'peek')?.reason).toBe('Lab tools did not start: It crashed three times in a minute.');
});

test('a plugin never run names the tools its manifest declares; a tool another source offers is not listed twice', async () => {
  const source: ToolSource = { list: () => [spec('read')], execute: () => Promise.reject(new Error('not run here')) };
  const catalog = new ToolCatalog({
    tools: source,
    plugins: {
      list: () => [plugin('files', 'Files', { enabled: false, state: 'registered' })],
      manifestTools: () => [
        { kind: 'tool', ...spec('read'), readOnly: true },
        { kind: 'tool', ...spec('write') },
      ],
    },
  });
  expect((await catalog.list()).map((t) => [t.name, t.plugin?.name ?? null, t.available])).toEqual([
    ['read', null, true],
    ['write', 'Files', false],
  ]);
});
