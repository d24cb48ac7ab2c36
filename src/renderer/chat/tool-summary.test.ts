import { expect, test } from 'vitest';
import { exitCodeOf, toolSummary } from './tool-summary.ts';

test('bash shows its command line, not JSON', () => {
  expect(toolSummary({ name: 'bash', args: { command: 'npm test -- --run', timeout: 60 } })).toEqual({ text: 'npm test -- --run' });
  expect(toolSummary({ name: 'bash', args: { command: 'cd src\nls -la' } }).text).toBe('cd src ⏎ ls -la');
});

test('a command still streaming in shows as far as it came', () => {
  expect(toolSummary({ name: 'bash', args: undefined, argsText: '{"command": "git st' }).text).toBe('git st');
});

test('edit and write show the file and the change size in lines', () => {
  expect(toolSummary({ name: 'edit', args: { path: 'src/a.ts', oldText: 'one\ntwo', newText: 'one\ntwo\nthree' } })).toEqual({
    text: 'src/a.ts',
    change: { added: 3, removed: 2 },
  });
  expect(toolSummary({ name: 'write', args: { path: 'notes.md', content: 'a\nb\n' } })).toEqual({ text: 'notes.md', change: { added: 2, removed: 0 } });
});

test('read shows the file; an MCP tool its server and tool', () => {
  expect(toolSummary({ name: 'read', args: { path: 'README.md', offset: 10 } }).text).toBe('README.md');
  expect(toolSummary({ name: 'mcp__everything__get-sum', args: { a: 1, b: 2 } }).text).toBe('everything · get-sum — 1 · 2');
});

test('search shows its query, mode and folder; repo_map what it leans toward', () => {
  expect(toolSummary({ name: 'search', args: { query: 'LedgerStore', mode: 'symbol', path: 'src' } }).text).toBe('LedgerStore (symbol) in src');
  expect(toolSummary({ name: 'search', args: { query: 'invoice total' } }).text).toBe('invoice total');
  expect(toolSummary({ name: 'repo_map', args: { focus: ['src/app.ts', 'createApp', 7] } }).text).toBe('toward src/app.ts, createApp');
  expect(toolSummary({ name: 'repo_map', args: {} }).text).toBe('the most used definitions');
  expect(toolSummary({ name: 'repo_map', args: { focus: 'not a list', path: 'src' } }).text).toBe('the most used definitions in src');
});

test('the exit code is read from the details only when it is a whole number', () => {
  expect(exitCodeOf({ exitCode: 0 })).toBe(0);
  expect(exitCodeOf({ exitCode: 2, sandbox: 'write' })).toBe(2);
  expect(exitCodeOf({ exitCode: null })).toBeNull();
  expect(exitCodeOf(undefined)).toBeNull();
});
