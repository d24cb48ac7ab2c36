import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ShellSandbox, ToolOutput } from '../../src/shared/tools/index.ts';
import { type BundledRuntime, startBundled, untilGone } from './bundled-runtime.ts';
import { markedSleep, startedPids } from './marked-processes.ts';

// The bash tool's sandbox end to end: main's tool registry sends the call with its context (the sandbox
// field among it) to the real workspace-tools plugin process, which runs the command in real bubblewrap.
// Every test looks at effects: the file system afterwards, a loopback listener, the command's output.

/** Outside /tmp: each command gets an empty /tmp of its own, which would hide these for the wrong reason. */
const BASE = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
const made: string[] = [];
function folder(prefix: string): string {
  const path = realpathSync(mkdtempSync(join(BASE, prefix)));
  made.push(path);
  return path;
}

let home: string;
let data: string;
let workspace: string;
let runtime: BundledRuntime | null = null;
const saved = { HOME: process.env.HOME, HTTPS_PROXY: process.env.HTTPS_PROXY, AMBER_TEST_SECRET: process.env.AMBER_TEST_SECRET };

beforeAll(async () => {
  // The plugin process inherits HOME and proxy variables from main: a temp home with planted secrets, and a
  // proxy whose URL holds a password. AMBER_TEST_SECRET is not even passed to the plugin.
  home = folder('amber-sbx-home-');
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY\n');
  writeFileSync(join(home, 'notes.txt'), 'plain notes\n');
  data = folder('amber-sbx-data-');
  writeFileSync(join(data, 'amber.db'), 'DATA-SECRET\n');
  process.env.HOME = home;
  process.env.HTTPS_PROXY = 'http://user:xyz-proxy-secret@127.0.0.1:9';
  process.env.AMBER_TEST_SECRET = 'xyz';
  runtime = await startBundled(['workspace-tools'], { dataDir: data, callTimeoutMs: 10_000 });
});

afterAll(async () => {
  await runtime?.close();
  runtime = null;
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

beforeEach(() => {
  workspace = folder('amber-sbx-ws-');
  writeFileSync(join(workspace, 'kept.txt'), 'original\n');
  writeFileSync(join(workspace, 'where'), data);
});

const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

function run(command: string, sandbox?: unknown, onUpdate?: (t: string) => void): Promise<ToolOutput> {
  const context = { sessionId: 's1', workspace, denied: [data], ...(sandbox !== undefined ? { sandbox: sandbox as ShellSandbox } : {}) };
  return runtime!.service.registries.tools.execute('bash', { command }, undefined, context, onUpdate);
}

const READ: ShellSandbox = { mode: 'read', network: false };
const WRITE: ShellSandbox = { mode: 'write', network: false };
const VANDALISE = 'touch new; echo x >> kept.txt; rm -f kept.txt; mkdir sub; touch ~/planted';

function unchanged(): void {
  expect(readFileSync(join(workspace, 'kept.txt'), 'utf8')).toBe('original\n');
  expect(existsSync(join(workspace, 'new'))).toBe(false);
  expect(existsSync(join(workspace, 'sub'))).toBe(false);
  expect(existsSync(join(home, 'planted'))).toBe(false);
}

describe('the sandbox a call runs in', () => {
  test('a call without a sandbox field runs read-only, with no network', async () => {
    const out = await run(VANDALISE);
    expect(out.details).toMatchObject({ sandbox: 'read', network: false });
    unchanged();
  });

  test('a malformed sandbox field is dropped by the plugin host, and the call runs read-only', async () => {
    const out = await run(VANDALISE, { mode: 'yolo', network: 'yes' });
    expect(out.details).toMatchObject({ sandbox: 'read', network: false });
    unchanged();
  });

  test('read mode changes nothing, in the workspace or the home folder', async () => {
    const out = await run(VANDALISE, READ);
    expect(out).toMatchObject({ isError: true, details: { sandbox: 'read' } });
    expect(text(out)).toMatch(/Read-only file system/);
    unchanged();
  });

  test("the user's keys and Amber's data folder cannot be read; the rest of home can", async () => {
    const out = text(
      await run('cat ~/notes.txt; cat ~/.ssh/id_rsa; d=$(cat where); cat "$d/amber.db"; echo "listed: $(ls -A ~/.ssh | wc -l) $(ls -A "$d" | wc -l)"', READ),
    );
    expect(out).toContain('plain notes');
    expect(out).toContain('listed: 0 0\n');
    expect(out).not.toContain('PRIVATE-KEY');
    expect(out).not.toContain('DATA-SECRET');
  });

  test('/tmp is private to the command', async () => {
    const name = `amber-sbx-${process.pid}-${Date.now()}`;
    const out = await run(`echo inside > /tmp/${name} && cat /tmp/${name}`, READ);
    expect(text(out)).toMatch(/^inside\n/);
    expect(existsSync(`/tmp/${name}`)).toBe(false);
  });

  test('no variable outside the allow-list reaches the command, though the plugin process has one', async () => {
    const plugin = [...runtime!.pids][0]!;
    expect(readFileSync(`/proc/${plugin}/environ`, 'latin1')).toContain('xyz-proxy-secret');
    for (const sandbox of [READ, { ...WRITE, unsandboxed: true }]) {
      const out = text(await run('env', sandbox));
      expect(out).toContain(`HOME=${home}\n`);
      expect(out).not.toContain('xyz');
    }
  });

  test('a process that left the session (setsid nohup) does not outlive the call', async () => {
    const marker = markedSleep();
    let streamed = '';
    const result = run(`setsid nohup sleep ${marker} >/dev/null 2>&1 & echo started; while [ ! -e go ]; do sleep 0.01; done`, WRITE, (t) => (streamed += t));
    const [pid] = await startedPids(() => streamed, marker);
    writeFileSync(join(workspace, 'go'), '');
    expect((await result).details).toMatchObject({ exitCode: 0, sandbox: 'write' });
    await untilGone(pid!);
  });

  test('a call the user chose to run unsandboxed can write outside the workspace, and says so', async () => {
    const out = await run('touch ~/unsandboxed', { ...WRITE, unsandboxed: true });
    expect(out).toMatchObject({ isError: false, details: { sandbox: 'unsandboxed' } });
    expect(existsSync(join(home, 'unsandboxed'))).toBe(true);
    rmSync(join(home, 'unsandboxed'));
  });
});

describe('write mode', () => {
  beforeEach(() => {
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    writeFileSync(join(workspace, '.git', 'hooks', 'post-commit'), '#!/bin/sh\n');
    writeFileSync(join(workspace, 'package.json'), '{}\n');
  });

  test('ordinary work runs: true, mkdir and write, git status, node --version', async () => {
    expect(await run('true', WRITE)).toMatchObject({ isError: false, details: { exitCode: 0, sandbox: 'write', network: false } });
    const out = await run('mkdir -p out && echo hi > out/a && git status --short && node --version', WRITE);
    expect(out.details).toMatchObject({ exitCode: 0 });
    expect(text(out)).toMatch(/\?\? out\/[\s\S]*v\d+\.\d+\.\d+\n/);
    expect(readFileSync(join(workspace, 'out', 'a'), 'utf8')).toBe('hi\n');
  });

  test('the git hooks and package.json cannot be changed, nor anything outside the workspace', async () => {
    await run('echo evil > .git/hooks/post-commit; echo evil > package.json; rm -f package.json; touch ~/planted', WRITE);
    expect(readFileSync(join(workspace, '.git', 'hooks', 'post-commit'), 'utf8')).toBe('#!/bin/sh\n');
    expect(readFileSync(join(workspace, 'package.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(home, 'planted'))).toBe(false);
  });
});

describe('the network', () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];
  let received = '';
  /** Told of every byte the listener gets. */
  let onData: () => void;

  beforeEach(async () => {
    received = '';
    onData = () => {};
    server = createServer((socket) => {
      sockets.push(socket);
      socket.setEncoding('utf8').on('data', (t: string) => {
        received += t;
        onData();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    server.close();
    await once(server, 'close');
  });

  const send = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf hello >&3`;

  test('without network a listener on the loopback gets no connection: the first it gets is our own, made after', async () => {
    for (const sandbox of [READ, WRITE]) {
      expect((await run(send(), sandbox)).isError).toBe(true);
      const first = new Promise<Socket>((resolve) => server.once('connection', resolve));
      const own = connect(port, '127.0.0.1');
      const local = await once(own, 'connect').then(() => own.localPort);
      expect((await first).remotePort).toBe(local);
      own.destroy();
    }
    expect(received).toBe('');
  });

  test('yolo with network reaches the listener', async () => {
    const got = new Promise<void>((resolve) => (onData = () => received === 'hello' && resolve()));
    const out = await run(send(), { mode: 'yolo', network: true });
    expect(out).toMatchObject({ isError: false, details: { sandbox: 'yolo', network: true } });
    await got;
  });
});
