// One MCP server connection against the reference server, over stdio and over streamable HTTP on
// 127.0.0.1: connect, list (every page), call, progress and cancellation, resources, prompts,
// list_changed, and a server killed mid-call.
import { spawn } from 'node:child_process';
import { afterEach, expect, test } from 'vitest';
import { mapCallResult, McpConnection, type McpServerEntry } from '../../src/plugins/mcp/index.ts';
import { startAuthProxy } from './auth-proxy.ts';
import { EVERYTHING_ENTRY, everythingStdio, type HttpEverything, startEverythingHttp, until } from './everything-server.ts';

const open: McpConnection[] = [];
let http: HttpEverything | null = null;
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.disconnect()));
  await http?.close();
  http = null;
});

function connection(entry: McpServerEntry): { conn: McpConnection; changes: Set<() => void> } {
  const changes = new Set<() => void>();
  const conn = new McpConnection(entry, { workspace: process.cwd(), onChange: () => changes.forEach((l) => l()) });
  open.push(conn);
  return { conn, changes };
}
const text = (r: Parameters<typeof mapCallResult>[0]) => mapCallResult(r).content[0]!.text;

for (const transport of ['stdio', 'http'] as const) {
  async function connected() {
    let entry = everythingStdio();
    if (transport === 'http') {
      http = await startEverythingHttp();
      entry = { name: 'everything', source: 'settings', config: { url: http.url, headers: {} } };
    }
    const c = connection(entry);
    await c.conn.connect();
    expect(c.conn.status()).toMatchObject({ state: 'connected', error: null, transport });
    return c;
  }

  test(`${transport}: connects and lists the server's tools, resources and prompts`, async () => {
    const { conn } = await connected();
    const names = conn.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    expect(conn.resources.length).toBeGreaterThan(0);
    expect(conn.prompts.map((p) => p.name)).toContain('args-prompt');
    expect(conn.status().tools).toBe(conn.tools.length);
  });

  test(`${transport}: calls echo and get-sum and maps their results to text`, async () => {
    const { conn } = await connected();
    expect(text(await conn.callTool('echo', { message: 'hi there' }))).toBe('Echo: hi there');
    expect(text(await conn.callTool('get-sum', { a: 2, b: 40 }))).toBe('The sum of 2 and 40 is 42.');
  });

  test(`${transport}: an image result becomes a note with its type and size`, async () => {
    const { conn } = await connected();
    expect(text(await conn.callTool('get-tiny-image', {}))).toMatch(/\[image: image\/png, [\d.]+ (bytes|KB)\]/);
  });

  test(`${transport}: reads a resource and gets a prompt with its arguments`, async () => {
    const { conn } = await connected();
    const resource = conn.resources[0]!;
    const contents = await conn.readResource(resource.uri);
    expect(contents.length).toBeGreaterThan(0);
    const prompt = await conn.getPrompt('args-prompt', { city: 'Lyon', state: 'Rhône' });
    expect(JSON.stringify(prompt.messages)).toContain("What's weather in Lyon, Rhône?");
  });
}

test('stdio: a long call reports progress, and aborting it ends the call at once while the connection stays usable', async () => {
  const { conn } = connection(everythingStdio());
  await conn.connect();
  const progress: string[] = [];
  const controller = new AbortController();
  const started = Date.now();
  const call = conn.callTool(
    'trigger-long-running-operation',
    { duration: 20, steps: 40 },
    {
      signal: controller.signal,
      onProgress: (p, total) => {
        progress.push(`${p}/${total}`);
        if (progress.length === 2) controller.abort();
      },
    },
  );
  await expect(call).rejects.toThrow(/everything/);
  expect(progress.slice(0, 2)).toEqual(['1/40', '2/40']);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(conn.state).toBe('connected');
  expect(text(await conn.callTool('echo', { message: 'still here' }))).toBe('Echo: still here');
});

test('stdio: a call past the per-server timeout fails naming the server', async () => {
  const { conn } = connection(everythingStdio('slow', { timeoutMs: 300 }));
  await conn.connect();
  await expect(conn.callTool('trigger-long-running-operation', { duration: 5, steps: 1 })).rejects.toThrow(
    /The MCP server 'slow' did not complete the call to 'trigger-long-running-operation'.*timed out/i,
  );
});

test('stdio: killing the server mid-call fails the call at once naming the server, and the next call reconnects', async () => {
  const { conn, changes } = connection(everythingStdio());
  await conn.connect();
  const firstPid = conn.pid!;
  const call = conn.callTool('trigger-long-running-operation', { duration: 30, steps: 30 });
  const failed = expect(call).rejects.toThrow(/The MCP server 'everything' closed its connection/);
  const started = Date.now();
  process.kill(-firstPid, 'SIGKILL');
  await failed;
  expect(Date.now() - started).toBeLessThan(5000);
  await until(
    (l) => changes.add(l),
    () => conn.state === 'failed',
    'the failed state',
  );
  expect(conn.status().error).toMatch(/closed its connection/);
  expect(text(await conn.callTool('echo', { message: 'again' }))).toBe('Echo: again');
  expect(conn.pid).not.toBe(firstPid);
});

test('stdio: a server that keeps failing is retried only after a growing backoff', async () => {
  let now = 1_000_000;
  const entry: McpServerEntry = { name: 'broken', source: 'settings', config: { command: process.execPath, args: ['-e', 'process.exit(3)'], env: {} } };
  const conn = new McpConnection(entry, { workspace: process.cwd(), clock: () => now, backoffMs: 1000 });
  open.push(conn);
  await conn.connect();
  expect(conn.state).toBe('failed');
  // The first retry may come at once; it fails too, and then the next waits.
  await expect(conn.callTool('echo', {})).rejects.toThrow(/'broken' could not be connected/);
  await expect(conn.callTool('echo', {})).rejects.toThrow(/'broken' is not connected .*tries again in 1 s/);
  now += 1000;
  await expect(conn.callTool('echo', {})).rejects.toThrow(/'broken' could not be connected/);
  await expect(conn.callTool('echo', {})).rejects.toThrow(/tries again in 2 s/);
});

test('http: a server that went away fails the call naming the server, and the next call reconnects once it is back', async () => {
  http = await startEverythingHttp();
  const { conn } = connection({ name: 'remote', source: 'settings', config: { url: http.url, headers: {} } });
  await conn.connect();
  const port = http.port;
  await http.close();
  await expect(conn.callTool('echo', { message: 'x' })).rejects.toThrow(/The MCP server 'remote'/);
  expect(conn.state).toBe('failed');
  http = await startEverythingHttp(port);
  expect(text(await conn.callTool('echo', { message: 'back' }))).toBe('Echo: back');
});

test('a tools/list_changed notification makes the tool list follow the server', async () => {
  const fixture = new URL('./fixtures/changing-server.ts', import.meta.url).pathname;
  const { conn, changes } = connection({ name: 'changing', source: 'settings', config: { command: process.execPath, args: [fixture], env: {} } });
  await conn.connect();
  expect(conn.tools.map((t) => t.name).sort()).toEqual(['grow', 'shrink']);
  await conn.callTool('grow', {});
  await until(
    (l) => changes.add(l),
    () => conn.tools.some((t) => t.name === 'grown-1'),
    'grown-1 to be listed',
  );
  await conn.callTool('shrink', {});
  await until(
    (l) => changes.add(l),
    () => conn.tools.length === 2,
    'grown-1 to be gone',
  );
});

test('http: a server that only speaks the older HTTP+SSE transport is reached through the fallback', async () => {
  const probe = await startEverythingHttp();
  const port = probe.port;
  await probe.close();
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'sse'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (/listening|running/i.test(out)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`The SSE server exited (${code}): ${out}`)));
    });
    const { conn } = connection({ name: 'legacy', source: 'settings', config: { url: `http://127.0.0.1:${port}/sse`, headers: {} } });
    await conn.connect();
    expect(conn.status()).toMatchObject({ state: 'connected', transport: 'sse' });
    expect(text(await conn.callTool('echo', { message: 'old wire' }))).toBe('Echo: old wire');
  } finally {
    child.kill('SIGKILL');
  }
});

test("lines from a server that are not JSON-RPC are that server's error alone: the connection goes on", async () => {
  const fixture = new URL('./fixtures/noisy-server.ts', import.meta.url).pathname;
  const noisy = connection({ name: 'noisy', source: 'settings', config: { command: process.execPath, args: [fixture], env: {} } });
  const good = connection(everythingStdio());
  await Promise.all([noisy.conn.connect(), good.conn.connect()]);
  expect(noisy.conn.state).toBe('connected');
  expect(text(await noisy.conn.callTool('ping', {}))).toBe('pong');
  expect(text(await noisy.conn.callTool('ping', {}))).toBe('pong');
  expect(text(await good.conn.callTool('echo', { message: 'unaffected' }))).toBe('Echo: unaffected');
});

test('a stdio server that exits at start fails with the end of its stderr in the reason', async () => {
  const { conn } = connection({
    name: 'keyless',
    source: 'settings',
    config: { command: process.execPath, args: ['-e', "console.error('boom: GH_TOKEN is not set'); process.exit(3)"], env: {} },
  });
  await conn.connect();
  expect(conn.status()).toMatchObject({
    state: 'failed',
    error: expect.stringMatching(/^The MCP server 'keyless' could not be connected: .*; its last words: boom: GH_TOKEN is not set$/),
  });
});

test('a tool list served in pages is read to its last page', async () => {
  const fixture = new URL('./fixtures/paged-server.ts', import.meta.url).pathname;
  const { conn } = connection({ name: 'paged', source: 'settings', config: { command: process.execPath, args: [fixture], env: {} } });
  await conn.connect();
  expect(conn.tools.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `tool-${i + 1}`));
  expect(text(await conn.callTool('tool-25', {}))).toBe('ran tool-25');
});

test('http: a server that answers 401 needs authorization, with what to do, and calls fail at once without hammering it', async () => {
  const proxy = await startAuthProxy('right-token', null);
  try {
    const { conn } = connection({ name: 'locked', source: 'settings', config: { url: proxy.url, headers: {} } });
    await conn.connect();
    expect(conn.status()).toMatchObject({ state: 'unauthorized', transport: 'http' });
    expect(conn.status().error).toMatch(
      /^The MCP server 'locked' needs authorization: it answered 401 Unauthorized\. Add an Authorization header .* in Settings → MCP servers → Edit, and save\.$/,
    );
    const refused = proxy.refused;
    await expect(conn.callTool('echo', { message: 'x' })).rejects.toThrow(/needs authorization/);
    // The same credentials would be refused again: no request was made.
    expect(proxy.refused).toBe(refused);
  } finally {
    await proxy.close();
  }
});

test('http: a wrong token is a 403 that needs authorization; the right one connects through to the server', async () => {
  http = await startEverythingHttp();
  const proxy = await startAuthProxy('right-token', new URL(http.url).origin);
  try {
    const wrong = connection({ name: 'guarded', source: 'settings', config: { url: proxy.url, headers: { Authorization: 'Bearer wrong-token' } } });
    await wrong.conn.connect();
    expect(wrong.conn.status()).toMatchObject({ state: 'unauthorized', error: expect.stringMatching(/needs authorization: it answered 403 Forbidden/) });
    const right = connection({ name: 'guarded', source: 'settings', config: { url: proxy.url, headers: { Authorization: 'Bearer right-token' } } });
    await right.conn.connect();
    expect(right.conn.status()).toMatchObject({ state: 'connected', error: null });
    expect(text(await right.conn.callTool('echo', { message: 'let in' }))).toBe('Echo: let in');
  } finally {
    await proxy.close();
  }
});
