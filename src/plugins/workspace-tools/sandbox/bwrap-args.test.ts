import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ShellSandbox, ToolOutput } from '../../../shared/tools/index.ts';
import { createBashTool } from '../bash-tool.ts';
import type { WorkspaceTool } from '../workspace-tool.ts';

// The sandbox judged by what a command can do inside it, with the real bubblewrap of this machine: every
// test runs real commands and then looks at the file system, the listener or the output.

/**
 * Temporary folders live outside /tmp: the sandbox gives each command an empty /tmp of its own, which would
 * hide anything under the host's /tmp and let these tests pass for the wrong reason.
 */
const BASE = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();

let root: string;
let home: string;
let data: string;
let outside: string;
let tool: WorkspaceTool;
const made: string[] = [];

function folder(prefix: string): string {
  const path = realpathSync(mkdtempSync(join(BASE, prefix)));
  made.push(path);
  return path;
}

beforeEach(() => {
  root = folder('amber-sbx-ws-');
  home = folder('amber-sbx-home-');
  data = folder('amber-sbx-data-');
  outside = folder('amber-sbx-out-');
  writeFileSync(join(root, 'kept.txt'), 'original\n');
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY\n');
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), 'AWS-SECRET\n');
  writeFileSync(join(home, '.bash_history'), 'export TOKEN=HISTORY-SECRET\n');
  writeFileSync(join(home, '.netrc'), 'machine x password NETRC-SECRET\n');
  writeFileSync(join(home, 'notes.txt'), 'plain notes\n');
  writeFileSync(join(data, 'amber.db'), 'DATA-SECRET\n');
  writeFileSync(join(outside, 'kept.txt'), 'original\n');
  // The data folder's path reaches the command only through a file, the way a hostile line would hide it.
  writeFileSync(join(root, 'where'), data);
  tool = createBashTool({ home });
});

afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

function run(command: string, sandbox?: ShellSandbox, t: WorkspaceTool = tool): Promise<ToolOutput> {
  return t.execute({ command }, { root, denied: [data], ...(sandbox ? { sandbox } : {}) });
}

const READ: ShellSandbox = { mode: 'read', network: false };
const WRITE: ShellSandbox = { mode: 'write', network: false };

/** Every entry below a folder with its content, to compare a tree before and after a command. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path] = entry.isFile() ? readFileSync(path, 'utf8') : entry.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

/** Tries every way of changing `dir` from inside: create, append, overwrite, delete, rename, mkdir. */
const VANDALISE = (dir: string) =>
  [
    `touch ${dir}/new`,
    `echo x >> ${dir}/kept.txt`,
    `echo x > ${dir}/kept.txt`,
    `rm -f ${dir}/kept.txt`,
    `mv ${dir}/kept.txt ${dir}/moved`,
    `mkdir ${dir}/sub`,
  ].join('; ');

describe('read mode', () => {
  test('nothing can be created, changed or deleted, in the workspace or anywhere else', async () => {
    const before = [snapshot(root), snapshot(home), snapshot(outside)];
    const out = await run(`${VANDALISE(root)}; ${VANDALISE(home)}; ${VANDALISE(outside)}; touch ${BASE}/amber-sbx-stray`, READ);
    expect(out).toMatchObject({ isError: true, details: { sandbox: 'read', network: false } });
    expect(text(out)).toMatch(/Read-only file system/);
    expect([snapshot(root), snapshot(home), snapshot(outside)]).toEqual(before);
    expect(existsSync(`${BASE}/amber-sbx-stray`)).toBe(false);
  });

  test('a call without a sandbox field is confined as read mode', async () => {
    const before = snapshot(root);
    const out = await run(VANDALISE(root));
    expect(out.details).toMatchObject({ sandbox: 'read', network: false });
    expect(snapshot(root)).toEqual(before);
  });

  test("the user's secrets are hidden while the rest of home stays readable", async () => {
    const out = await run(
      'cat ~/notes.txt; cat ~/.ssh/id_rsa ~/.aws/credentials ~/.bash_history ~/.netrc; echo "listed: $(ls -A ~/.ssh | wc -l) $(ls -A ~/.aws | wc -l)"',
      READ,
    );
    const seen = text(out);
    expect(seen).toContain('plain notes');
    expect(seen).toContain('listed: 0 0\n');
    for (const secret of ['PRIVATE-KEY', 'AWS-SECRET', 'HISTORY-SECRET', 'NETRC-SECRET']) expect(seen).not.toContain(secret);
  });

  test('a secret reached through a symbolic link is hidden too', async () => {
    const keys = folder('amber-sbx-keys-');
    writeFileSync(join(keys, 'id_ed25519'), 'LINKED-KEY\n');
    rmSync(join(home, '.ssh'), { recursive: true });
    symlinkSync(keys, join(home, '.ssh'));
    const out = await run(`cat ~/.ssh/id_ed25519 ${keys}/id_ed25519; true`, READ);
    expect(text(out)).not.toContain('LINKED-KEY');
  });

  test("Amber's data folder cannot be read, whatever path the command builds", async () => {
    const out = await run('d=$(cat where); echo "listed: $(ls -A "$d" | wc -l)"; cat "$d/amber.db"; true', READ);
    expect(text(out)).not.toContain('DATA-SECRET');
    expect(text(out)).toMatch(/^listed: 0\n/);
  });

  test('the cover over a secret cannot be taken off, even by root', async () => {
    const out = await run('umount ~/.ssh; umount -l ~/.ssh; mount -o remount,rw /; cat ~/.ssh/id_rsa; true', READ);
    expect(text(out)).not.toContain('PRIVATE-KEY');
  });

  test('/tmp is private: what a command writes there is not on the host, and the host’s files there are not seen', async () => {
    const name = `amber-sbx-${process.pid}-${Date.now()}`;
    writeFileSync(join(tmpdir(), `${name}-host`), 'host\n');
    made.push(join(tmpdir(), `${name}-host`));
    const out = await run(`echo inside > /tmp/${name}-inside && cat /tmp/${name}-inside && ls -A /tmp`, READ);
    expect(text(out)).toMatch(/^inside\n/);
    expect(text(out)).not.toContain(`${name}-host`);
    expect(existsSync(join(tmpdir(), `${name}-inside`))).toBe(false);
    expect(existsSync(join('/tmp', `${name}-inside`))).toBe(false);
  });
});

describe('the network', () => {
  let server: Server;
  let port: number;
  let connections: Socket[];
  let received: string;
  let onData: () => void;

  beforeEach(async () => {
    connections = [];
    received = '';
    onData = () => {};
    server = createServer((socket) => {
      connections.push(socket);
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
    for (const s of connections) s.destroy();
    server.close();
    await once(server, 'close');
  });

  const send = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf hello >&3 && exec 3>&-`;

  /** Connects from this process and waits until the listener has it: any earlier connection would be in first. */
  async function control(): Promise<void> {
    const { connect } = await import('node:net');
    const seen = new Promise<void>((resolve) => server.once('connection', () => resolve()));
    const socket = connect(port, '127.0.0.1');
    await seen;
    socket.destroy();
  }

  test.each([
    ['read', READ],
    ['read even when network is asked', { mode: 'read', network: true } as ShellSandbox],
    ['write without network', WRITE],
  ])('%s: a listener on the host loopback receives no connection and no byte', async (_name, sandbox) => {
    const out = await run(send(), sandbox);
    expect(out.isError).toBe(true);
    expect(out.details).toMatchObject({ network: false });
    await control();
    expect(connections).toHaveLength(1);
    expect(received).toBe('');
  });

  test.each([
    ['write with network', { mode: 'write', network: true } as ShellSandbox],
    ['yolo', { mode: 'yolo', network: true } as ShellSandbox],
  ])('%s: the listener receives the bytes', async (_name, sandbox) => {
    const got = new Promise<void>((resolve) => (onData = () => received === 'hello' && resolve()));
    const out = await run(send(), sandbox);
    expect(out).toMatchObject({ isError: false, details: { network: true } });
    await got;
    expect(received).toBe('hello');
  });
});

describe('write mode', () => {
  beforeEach(() => {
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'hooks', 'post-commit'), '#!/bin/sh\necho original\n');
    writeFileSync(join(root, 'package.json'), '{"scripts":{}}\n');
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'pkg', 'Makefile'), 'all:\n');
  });

  test('ordinary work in the workspace runs: true, mkdir and write, git status, node --version', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    expect(await run('true', WRITE)).toMatchObject({ isError: false, details: { exitCode: 0, sandbox: 'write' } });
    const out = await run('mkdir -p out && echo hi > out/a && cat out/a && git status --short && node --version', WRITE);
    expect(out.details).toMatchObject({ exitCode: 0 });
    expect(text(out)).toMatch(/^hi\n[\s\S]*\?\? out\/[\s\S]*v\d+\.\d+\.\d+\n/);
    expect(readFileSync(join(root, 'out', 'a'), 'utf8')).toBe('hi\n');
  });

  test('protected paths that exist cannot be written, deleted or moved away', async () => {
    const before = [
      readFileSync(join(root, '.git/hooks/post-commit'), 'utf8'),
      readFileSync(join(root, 'package.json'), 'utf8'),
      readFileSync(join(root, 'pkg/Makefile'), 'utf8'),
    ];
    const out = await run(
      'echo evil > .git/hooks/post-commit; echo evil > .git/hooks/pre-commit; echo evil > package.json; rm -f package.json pkg/Makefile; ' +
        'mv .git .git-old; rm -rf .git; echo evil >> pkg/Makefile; echo ok > free.txt',
      WRITE,
    );
    expect(out.details).toMatchObject({ sandbox: 'write' });
    expect([
      readFileSync(join(root, '.git/hooks/post-commit'), 'utf8'),
      readFileSync(join(root, 'package.json'), 'utf8'),
      readFileSync(join(root, 'pkg/Makefile'), 'utf8'),
    ]).toEqual(before);
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(join(root, '.git-old'))).toBe(false);
    expect(readFileSync(join(root, 'free.txt'), 'utf8')).toBe('ok\n');
  });

  test('a protected path the user allowed for this call is writable, and only it', async () => {
    // As main may write them: not normalised.
    const sandbox: ShellSandbox = { mode: 'write', network: false, writable: [`${root}/./package.json`, `${root}/.git//hooks/post-commit`] };
    await run('echo changed > package.json; echo changed > .git/hooks/post-commit; echo evil > .git/hooks/pre-commit; echo evil > pkg/Makefile', sandbox);
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe('changed\n');
    expect(readFileSync(join(root, '.git/hooks/post-commit'), 'utf8')).toBe('changed\n');
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(join(root, 'pkg/Makefile'), 'utf8')).toBe('all:\n');
  });

  test('nothing outside the workspace can be written, the home folder included', async () => {
    const before = [snapshot(home), snapshot(outside), snapshot(data)];
    await run(`${VANDALISE(home)}; ${VANDALISE(outside)}; d=$(cat where); touch "$d/planted"`, WRITE);
    expect([snapshot(home), snapshot(outside), snapshot(data)]).toEqual(before);
  });

  test('a workspace that is the home folder keeps its secrets hidden and its shell start-up files read-only', async () => {
    writeFileSync(join(home, '.bashrc'), '# original\n');
    const inHome = createBashTool({ home });
    const out = await inHome.execute(
      { command: 'cat .ssh/id_rsa; echo evil >> .bashrc; echo ok > made.txt; cat made.txt' },
      { root: home, denied: [data], sandbox: WRITE },
    );
    expect(text(out)).not.toContain('PRIVATE-KEY');
    expect(text(out)).toContain('ok');
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# original\n');
    expect(readFileSync(join(home, '.ssh/id_rsa'), 'utf8')).toBe('PRIVATE-KEY\n');
  });
});

describe('the environment', () => {
  test('no variable outside the allow-list reaches a command, sandboxed or not', async () => {
    const env = {
      ...process.env,
      AMBER_TEST_SECRET: 'xyz-env-secret',
      OPENAI_API_KEY: 'sk-xyz',
      HTTPS_PROXY: 'http://user:xyz-proxy@127.0.0.1:9',
      NODE_OPTIONS: '--require /x',
    };
    const t = createBashTool({ home, env });
    for (const sandbox of [READ, WRITE, { mode: 'write', network: false, unsandboxed: true } as ShellSandbox]) {
      const out = text(await run('env', sandbox, t));
      expect(out).not.toContain('xyz');
      expect(out).not.toContain('NODE_OPTIONS');
      expect(out).toContain(`HOME=${home}\n`);
    }
  });
});

describe('when the sandbox cannot start', () => {
  const broken = createBashTool({
    probe: async () => ({
      ok: false,
      kind: 'bubblewrap',
      reason: 'bubblewrap (bwrap) is not installed.',
      fix: 'Install bubblewrap: sudo apt install bubblewrap.',
    }),
  });

  test('nothing runs, and the result says why and how to fix it', async () => {
    const out = await run('touch ran', WRITE, broken);
    expect(out).toMatchObject({ isError: true, details: { sandbox: 'unavailable' } });
    expect(text(out)).toMatch(
      /did not run: the sandbox could not start\. bubblewrap \(bwrap\) is not installed\. Install bubblewrap: sudo apt install bubblewrap\./,
    );
    expect(existsSync(join(root, 'ran'))).toBe(false);
  });

  test('a call the user chose to run unsandboxed runs, and says so', async () => {
    const out = await run(`touch ran; touch ${outside}/ran`, { mode: 'write', network: false, unsandboxed: true }, broken);
    expect(out).toMatchObject({ isError: false, details: { sandbox: 'unsandboxed', network: true } });
    expect(existsSync(join(root, 'ran'))).toBe(true);
    expect(existsSync(join(outside, 'ran'))).toBe(true);
  });
});
