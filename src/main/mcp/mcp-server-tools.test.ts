import { expect, test } from 'vitest';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { mcpServerTools } from './mcp-server-tools.ts';

const spec = (name: string, readOnly = false, description = ''): ToolSpec => ({ name, description, parameters: {}, readOnly });

test("the MCP servers' tools are listed by server with the name trust is kept by; other tools are left out", () => {
  expect(
    mcpServerTools([spec('read', true), spec('mcp__files__write_file'), spec('mcp__everything__echo', true, 'Echoes.'), spec('mcp__files__read_file', true)]),
  ).toEqual([
    { server: 'everything', tool: 'mcp__everything__echo', description: 'Echoes.', readOnlyHint: true },
    { server: 'files', tool: 'mcp__files__read_file', readOnlyHint: true },
    { server: 'files', tool: 'mcp__files__write_file', readOnlyHint: false },
  ]);
});
