import { expect, test } from 'vitest';
import { ToolDeclaration } from '../../shared/plugins/index.ts';
import { WORKSPACE_TOOLS } from './workspace-tools.ts';

test('every workspace tool declares its path parameter (the shell tool its command line instead), and main accepts the declaration', () => {
  expect(WORKSPACE_TOOLS.map((t) => [t.spec.name, t.spec.pathParams, t.spec.shell ?? false])).toEqual([
    ['read', ['path'], false],
    ['ls', ['path'], false],
    ['find', ['path'], false],
    ['grep', ['path'], false],
    ['write', ['path'], false],
    ['edit', ['path'], false],
    ['bash', [], true],
  ]);
  for (const tool of WORKSPACE_TOOLS) expect(ToolDeclaration.parse({ kind: 'tool', ...tool.spec }).pathParams).toEqual(tool.spec.shell ? [] : ['path']);
});
