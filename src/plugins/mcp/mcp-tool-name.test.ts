import { expect, test } from 'vitest';
import { MAX_TOOL_NAME, mcpToolName } from './mcp-tool-name.ts';

test('a tool keeps its name under the mcp__server__ prefix when it fits the rules', () => {
  expect(mcpToolName('everything', 'get-sum', new Set())).toEqual({ name: 'mcp__everything__get-sum', changed: false });
});

test('characters outside letters, digits, _ and - become _', () => {
  expect(mcpToolName('my server', 'files/read.v2', new Set()).name).toBe('mcp__my_server__files_read_v2');
});

test('a long name is cut to 64 characters and collisions get a numbered suffix within the cap', () => {
  const taken = new Set<string>();
  const long = 'x'.repeat(100);
  const first = mcpToolName('s', long, taken).name;
  const second = mcpToolName('s', `${long}y`, taken).name;
  expect(first).toHaveLength(MAX_TOOL_NAME);
  expect(second).toHaveLength(MAX_TOOL_NAME);
  expect(second.endsWith('_2')).toBe(true);
  expect(second).not.toBe(first);
  expect(mcpToolName('a b', 'c', new Set(['mcp__a_b__c'])).name).toBe('mcp__a_b__c_2');
});
