// The headless shell under test with the reference MCP server in its mcp.json, so the MCP plugin starts with
// the shell and offers the server's tools as `mcp__everything__*`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';

export function openEverythingHeadless(prefix: string): Promise<HeadlessUnderTest> {
  return openHeadless({
    prefix,
    before: (_workspace, dir) => {
      mkdirSync(join(dir, 'data'));
      writeFileSync(
        join(dir, 'data', 'mcp.json'),
        JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } }),
      );
    },
  });
}
