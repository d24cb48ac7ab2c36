// `npm run bench -- mcp`: MCP through Amber against the reference server (@modelcontextprotocol/server-everything)
// over stdio. Measures, in one run:
//   connect_list_p50_ms     — start the server, initialize, and list its tools, resources and prompts (p50 over 5);
//   amber_echo_p50_ms/p99   — an `echo` call main → mcp plugin process → server → back, through the tool registry;
//   direct_echo_p50_ms/p99  — the same call with the SDK's client in this one process, to its own server;
//   target_ms               — 1.5 × direct p50 + 1 ms; `within_target` when Amber's p50 is at most that.
// The two kinds of call alternate in blocks so both see the same load. The last line is one JSON object.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createForkLauncher, discoverPlugins, PluginService } from '../src/main/plugins/index.ts';
import { McpConnection } from '../src/plugins/mcp/index.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const BLOCK = 100;
const CONNECTS = 5;
const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const server = { command: process.execPath, args: [ENTRY, 'stdio'] };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

const dir = mkdtempSync(join(tmpdir(), 'amber-mcp-bench-'));
mkdirSync(join(dir, 'data', 'plugin-data', 'mcp'), { recursive: true });
const connectMs: number[] = [];
const amberMs: number[] = [];
const directMs: number[] = [];
let service: PluginService | null = null;
let direct: Client | null = null;
try {
  // Connect and list, in this process (what the plugin does for each server).
  for (let i = 0; i < CONNECTS; i++) {
    const conn = new McpConnection({ name: 'everything', source: 'settings', config: { ...server, env: {} } }, { workspace: dir });
    const t0 = performance.now();
    await conn.connect();
    connectMs.push(performance.now() - t0);
    if (conn.state !== 'connected') throw new Error(conn.status().error ?? 'The reference server did not connect.');
    await conn.disconnect();
  }

  // Amber: the mcp plugin in its own process, called through main's tool registry.
  const { plugins } = discoverPlugins({ bundledRoot: join(root, 'src/plugins'), bundledIds: ['mcp'] });
  const settings = new Map<string, string>();
  service = new PluginService({
    store: {
      pluginStates: () => new Map(),
      setPluginState: () => {},
      getSetting: (k) => settings.get(k) ?? null,
      setSetting: (k, v) => void (v === null ? settings.delete(k) : settings.set(k, v)),
    },
    dataDir: join(dir, 'data'),
    workspace: dir,
    plugins,
    config: () => ({ servers: { everything: server }, dataDir: join(dir, 'data', 'plugin-data', 'mcp') }),
    launcher: createForkLauncher({ execArgv: [] }),
    tickIntervalMs: 0,
  });
  await service.setState('mcp', true);
  const tools = service.registries.tools;
  await new Promise<void>((res, rej) => {
    if (tools.get('mcp__everything__echo')) return res();
    const timer = setTimeout(() => rej(new Error('The echo tool did not appear within 30 s.')), 30_000);
    const sub = tools.onDidChange(() => {
      if (!tools.get('mcp__everything__echo')) return;
      clearTimeout(timer);
      sub.dispose();
      res();
    });
  });

  // Direct: the SDK's client in this process, to a server of its own.
  direct = new Client({ name: 'bench', version: '1.0.0' });
  await direct.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));

  const amberCall = async () => {
    const out = await tools.execute('mcp__everything__echo', { message: 'ping' });
    if (out.isError) throw new Error(out.content[0]?.text ?? 'echo failed');
  };
  const directCall = async () => {
    await direct!.callTool({ name: 'echo', arguments: { message: 'ping' } });
  };
  for (let i = 0; i < 100; i++) {
    await amberCall();
    await directCall();
  }
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) {
      const t0 = performance.now();
      await amberCall();
      amberMs.push(performance.now() - t0);
    }
    for (let i = 0; i < BLOCK; i++) {
      const t0 = performance.now();
      await directCall();
      directMs.push(performance.now() - t0);
    }
  }
} finally {
  await direct?.close().catch(() => {});
  await service?.dispose();
  rmSync(dir, { recursive: true, force: true });
}

const amberP50 = percentile(amberMs, 50);
const directP50 = percentile(directMs, 50);
const target = 1.5 * directP50 + 1;
const result = {
  calls: amberMs.length,
  connect_list_p50_ms: round(percentile(connectMs, 50), 1),
  amber_echo_p50_ms: round(amberP50),
  amber_echo_p99_ms: round(percentile(amberMs, 99)),
  direct_echo_p50_ms: round(directP50),
  direct_echo_p99_ms: round(percentile(directMs, 99)),
  overhead_p50_ms: round(amberP50 - directP50),
  target_ms: round(target),
  within_target: amberP50 <= target,
};
console.log(`connect + list (stdio): p50 ${result.connect_list_p50_ms} ms over ${CONNECTS}`);
console.log(`echo through Amber: p50 ${result.amber_echo_p50_ms} ms, p99 ${result.amber_echo_p99_ms} ms`);
console.log(`echo direct (SDK, one process): p50 ${result.direct_echo_p50_ms} ms, p99 ${result.direct_echo_p99_ms} ms`);
console.log(`target: Amber p50 ≤ 1.5 × direct + 1 ms = ${result.target_ms} ms → ${result.within_target ? 'met' : 'missed'}`);
console.log(JSON.stringify(result));
