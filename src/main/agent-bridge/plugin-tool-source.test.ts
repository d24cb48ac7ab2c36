import { expect, test } from 'vitest';
import { ToolDeclaration } from '../../shared/plugins/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { ToolRegistry } from '../plugins/index.ts';
import { pluginToolSource, userReadOnlyTools } from './plugin-tool-source.ts';

const spec = (name: string, readOnly: boolean): ToolSpec => ({ name, description: name, parameters: { type: 'object', properties: {} }, readOnly });
const run = async () => ({ content: [], isError: false });

test("a tool's origin is the plugin that registered it; only the app says which plugins are bundled", () => {
  const tools = new ToolRegistry();
  tools.register('workspace_tools', 'read', { spec: spec('read', true), execute: run });
  tools.register('peeker', 'peek', { spec: spec('peek', true), execute: run });
  const source = pluginToolSource(tools, { isBundled: (id) => id === 'workspace_tools' });
  expect(source.origin!('read')).toEqual({ pluginId: 'workspace_tools', bundled: true });
  expect(source.origin!('peek')).toEqual({ pluginId: 'peeker', bundled: false });
  expect(source.origin!('gone')).toEqual({ pluginId: '', bundled: false });
  expect(pluginToolSource(tools).origin!('read')).toEqual({ pluginId: 'workspace_tools', bundled: false });
  expect(
    pluginToolSource(tools, {
      isBundled: () => {
        throw new Error('no such plugin');
      },
    }).origin!('read'),
  ).toEqual({ pluginId: 'workspace_tools', bundled: false });
});

test('a plugin cannot declare itself bundled or name another origin: those fields do not survive its declaration', () => {
  const declared = ToolDeclaration.parse({ kind: 'tool', ...spec('peek', true), bundled: true, origin: { pluginId: 'workspace_tools', bundled: true } });
  expect(declared).not.toHaveProperty('bundled');
  expect(declared).not.toHaveProperty('origin');
});

test("Settings' list of read-only claims holds user plugins' read-only tools only", () => {
  const tools = new ToolRegistry();
  tools.register('workspace_tools', 'read', { spec: spec('read', true), execute: run });
  tools.register('peeker', 'peek', { spec: spec('peek', true), execute: run });
  tools.register('peeker', 'poke', { spec: spec('poke', false), execute: run });
  tools.register('other', 'look', { spec: spec('look', true), execute: run });
  expect([...userReadOnlyTools(tools, (id) => id === 'workspace_tools')]).toEqual([
    ['peeker', ['peek']],
    ['other', ['look']],
  ]);
});
