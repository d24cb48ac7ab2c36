// The reference MCP server (@modelcontextprotocol/server-everything, a pinned dev dependency), started the
// ways the tests need: as a stdio server entry, or over streamable HTTP on a loopback port.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { McpServerEntry } from '../../src/plugins/mcp/index.ts';

const require = createRequire(import.meta.url);
/** The server's entry script: `node ENTRY stdio` or `node ENTRY streamableHttp` (port from PORT). */
export const EVERYTHING_ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

export function everythingStdio(name = 'everything', extra: Partial<McpServerEntry['config']> = {}): McpServerEntry {
  return { name, source: 'settings', config: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {}, ...extra } as McpServerEntry['config'] };
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface HttpEverything {
  url: string;
  port: number;
  child: ChildProcess;
  close(): Promise<void>;
}

/** Starts the server over streamable HTTP and resolves once it listens (on the given port, else a free one). */
export async function startEverythingHttp(port?: number): Promise<HttpEverything> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], {
    env: { ...process.env, PORT: String(p) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The reference server exited (${code}) before it listened: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${p}/mcp`,
    port: p,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Resolves once `predicate` holds, checked at each change the connection reports. */
export function until(subscribe: (listener: () => void) => void, predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate()) return resolve();
    const timer = setTimeout(() => reject(new Error(`Timed out waiting for ${what}.`)), timeoutMs);
    subscribe(() => {
      if (predicate()) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}
