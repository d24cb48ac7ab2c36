import { expect, test } from 'vitest';
import { ToolDeclaration } from '../../shared/plugins/contributions.ts';
import { WORKSPACE_TOOLS } from './workspace-tools.ts';

test('every workspace tool declares its path parameter, and main accepts the declaration', () => {
  expect(WORKSPACE_TOOLS.map((t) => [t.spec.name, t.spec.pathParams])).toEqual([
    ['read', ['path']],
    ['ls', ['path']],
    ['find', ['path']],
    ['grep', ['path']],
    ['write', ['path']],
    ['edit', ['path']],
  ]);
  for (const tool of WORKSPACE_TOOLS) expect(ToolDeclaration.parse({ kind: 'tool', ...tool.spec }).pathParams).toEqual(['path']);
});
