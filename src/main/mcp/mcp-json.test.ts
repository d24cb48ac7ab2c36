import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readMcpJson } from './mcp-json.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-json-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('mcp.json in the data folder gives its servers by name', () => {
  writeFileSync(
    join(dir, 'mcp.json'),
    JSON.stringify({ mcpServers: { files: { command: 'node', args: ['x.js'] }, remote: { url: 'http://127.0.0.1:1/mcp' } } }),
  );
  expect(readMcpJson(dir)).toEqual({ found: true, servers: { files: { command: 'node', args: ['x.js'] }, remote: { url: 'http://127.0.0.1:1/mcp' } } });
});

test('a missing file is not found; bad JSON or another shape is found with no servers', () => {
  expect(readMcpJson(dir)).toEqual({ found: false, servers: {} });
  writeFileSync(join(dir, 'mcp.json'), '{ not json');
  expect(readMcpJson(dir)).toEqual({ found: true, servers: {} });
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ servers: { a: {} } }));
  expect(readMcpJson(dir)).toEqual({ found: true, servers: {} });
});
