import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { signalOfExitCode } from './bash-tool.ts';
import { bashTool, createBashTool, shellFor, tailOutput } from './index.ts';
import type { WorkspaceToolContext } from './workspace-tool.ts';

let root: string;
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'amber-bash-')));
  writeFileSync(join(root, 'hello.txt'), 'hi\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Gone, or a zombie nobody reaped yet: either way it runs no more. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/**
 * Resolves once the process is gone. A killed process closes its pipes a moment before the kernel marks it
 * a zombie, so "the call has ended" and "the process is gone" are watched separately.
 */
async function untilGone(pid: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!isGone(pid)) {
    if (Date.now() > deadline) throw new Error(`Process ${pid} is still running.`);
    await new Promise<void>((r) => setImmediate(r));
  }
}

/**
 * Host pids of the living processes whose command line holds `marker`. A sandboxed command sees only its own
 * pid namespace (`$!` there is not a host pid), so tests find its processes from outside, by a marked argument.
 */
function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ').includes(marker) && !isGone(Number(name))) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** A `sleep` whose argument no other process has: `sleep 300.<n>`. */
function markedSleep(): string {
  return `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Resolves the host pids of the marked process once the command has said "started" and the process runs. */
async function startedPids(streamed: () => string, marker: string, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = streamed().includes('started') ? pidsWith(marker) : [];
    if (pids.length > 0) return pids;
    if (Date.now() > deadline) throw new Error(`No process with ${marker} appeared.`);
    await new Promise<void>((r) => setTimeout(r, 5));
  }
}

/** Runs a command that starts a marked `sleep` in the background and says "started"; resolves its host pids and the pending result. */
function runMarked(command: (sleep: string) => string, ctx: Partial<WorkspaceToolContext> & { timeout?: number } = {}, tool = bashTool) {
  const marker = markedSleep();
  let streamed = '';
  const { timeout, ...rest } = ctx;
  const result = tool.execute(
    { command: command(`sleep ${marker}`), ...(timeout !== undefined ? { timeout } : {}) },
    { root, ...rest, update: (t) => (streamed += t) },
  );
  return { pids: startedPids(() => streamed, marker), result };
}

/** Shell text that waits until the test, having seen what it needs, creates `go` in the workspace. */
const UNTIL_GO = 'while [ ! -e go ]; do sleep 0.01; done';

const unsandboxed = { mode: 'write', network: false, unsandboxed: true } as const;

describe('bash', () => {
  test('runs in the workspace folder and reports the exit code', async () => {
    const out = await bashTool.execute({ command: 'pwd && ls' }, { root });
    expect(out.isError).toBe(false);
    expect(text(out)).toBe(`${root}\nhello.txt\n\n[Exit code 0]`);
    expect(out.details).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
  });

  test('a non-zero exit is an error result the model reads, with the output before it and what its sandbox allowed', async () => {
    const out = await bashTool.execute({ command: 'echo partial; echo oops >&2; exit 3' }, { root });
    expect(out.isError).toBe(true);
    expect(text(out)).toBe('partial\noops\n\n[Exit code 3]\n[It ran in the read-only sandbox: nothing can be written but /tmp, and there is no network.]');
    expect(out.details).toMatchObject({ exitCode: 3, sandbox: 'read', network: false });
    const plain = await bashTool.execute({ command: 'exit 3' }, { root, sandbox: unsandboxed });
    expect(text(plain)).toBe('(no output)\n\n[Exit code 3]');
  });

  test('a command killed by a signal is an error: by its signal unsandboxed, by exit code 128 + its number in the sandbox', async () => {
    const plain = await bashTool.execute({ command: 'echo before; kill -9 $$' }, { root, sandbox: unsandboxed });
    expect(plain).toMatchObject({ isError: true, details: { exitCode: null, signal: 'SIGKILL', sandbox: 'unsandboxed' } });
    expect(text(plain)).toBe('before\n\n[Killed by SIGKILL.]');
    const boxed = await bashTool.execute({ command: 'echo before; kill -9 $$' }, { root });
    expect(boxed).toMatchObject({ isError: true, details: { exitCode: 137, signal: null, sandbox: 'read' } });
    expect(text(boxed)).toMatch(/^before\n\n\[Exit code 137, as for SIGKILL\]\n/);
    expect(signalOfExitCode(143)).toBe(', as for SIGTERM');
    expect(signalOfExitCode(3)).toBe('');
  });

  test('stdin is empty: a command that reads input ends at once', async () => {
    const out = await bashTool.execute({ command: 'cat; read x; echo "got:$x"' }, { root });
    expect(text(out)).toBe('got:\n\n[Exit code 0]');
  });

  test('stdout and stderr arrive interleaved in order, streamed as they come', async () => {
    const updates: string[] = [];
    const out = await bashTool.execute(
      { command: 'for i in 1 2 3; do echo out$i; sleep 0.1; echo err$i >&2; sleep 0.1; done' },
      { root, update: (t) => updates.push(t) },
    );
    expect(text(out)).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n\n[Exit code 0]');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.join('')).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n');
  });

  test('a background process the command started does not outlive the call, sandboxed or not', async () => {
    for (const sandbox of [undefined, unsandboxed]) {
      rmSync(join(root, 'go'), { force: true });
      const { pids, result } = runMarked((sleep) => `${sleep} & echo started; ${UNTIL_GO}`, sandbox ? { sandbox } : {});
      const [pid] = await pids;
      writeFileSync(join(root, 'go'), '');
      const out = await result;
      expect(text(out)).toMatch(/\[Exit code 0\]$/);
      await untilGone(pid!);
    }
  });

  test('in the sandbox, not even a process that left the session (setsid nohup) outlives the call', async () => {
    const { pids, result } = runMarked((sleep) => `setsid nohup ${sleep} >/dev/null 2>&1 & echo started; ${UNTIL_GO}`, {
      sandbox: { mode: 'write', network: false },
    });
    const [pid] = await pids;
    writeFileSync(join(root, 'go'), '');
    expect((await result).details).toMatchObject({ exitCode: 0, sandbox: 'write' });
    await untilGone(pid!);
  });

  test('stop (the abort signal) ends the whole process group, grandchildren included', async () => {
    for (const sandbox of [undefined, unsandboxed]) {
      const controller = new AbortController();
      const { pids, result } = runMarked((sleep) => `${sleep} & echo started; wait`, { signal: controller.signal, ...(sandbox ? { sandbox } : {}) });
      const [pid] = await pids;
      expect(isGone(pid!)).toBe(false);
      controller.abort();
      const out = await result;
      expect(out.isError).toBe(true);
      expect(text(out)).toMatch(/Stopped by the user/);
      expect(out.details).toMatchObject({ stopped: true });
      await untilGone(pid!);
    }
  });

  test('a stop that comes while the sandbox is still starting leaves nothing running: 60 stops, 0 to 12 ms after the call', async () => {
    const marker = markedSleep();
    for (let i = 0; i < 60; i++) {
      const controller = new AbortController();
      const result = bashTool.execute({ command: `sleep ${marker}` }, { root, signal: controller.signal, sandbox: { mode: 'write', network: false } });
      await new Promise<void>((r) => setTimeout(r, i % 13));
      controller.abort();
      expect((await result).details).toMatchObject({ sandbox: 'write' });
    }
    // Before the sandbox reported its first process, about one stop in three left that process orphaned and running.
    const deadline = Date.now() + 2000;
    while (pidsWith(marker).length > 0 && Date.now() < deadline) await new Promise<void>((r) => setTimeout(r, 20));
    expect(pidsWith(marker)).toEqual([]);
  });

  test('the timeout ends the group; a process ignoring SIGTERM gets SIGKILL after the grace period', async () => {
    const tool = createBashTool({ graceMs: 200 });
    for (const sandbox of [undefined, unsandboxed]) {
      const { pids, result } = runMarked(
        (sleep) => `trap "" TERM; ${sleep} & echo started; while true; do sleep 0.05; done`,
        { timeout: 0.5, ...(sandbox ? { sandbox } : {}) },
        tool,
      );
      const [pid] = await pids;
      const out = await result;
      expect(out.isError).toBe(true);
      expect(text(out)).toMatch(/Stopped after 0.5 s \(the timeout\)/);
      expect(out.details).toMatchObject({ timedOut: true });
      await untilGone(pid!);
    }
  });

  test('long output keeps its tail with a note saying how much came before', async () => {
    const tool = createBashTool({ maxLines: 100 });
    const out = text(await tool.execute({ command: 'seq 1 5000' }, { root }));
    expect(out).toMatch(/^\[Output truncated: showing the last 100 of 5000 lines/);
    expect(out).toContain('\n4901\n');
    expect(out).toContain('\n5000\n\n[Exit code 0]');
    expect(out).not.toContain('\n4900\n');
    expect(tailOutput('a\nb', 2, 0, 10, 1000)).toBe('a\nb');
  });

  test('a command naming a denied folder is refused before anything runs', async () => {
    const data = realpathSync(mkdtempSync(join(tmpdir(), 'amber-data-')));
    try {
      const out = await bashTool.execute({ command: `touch ${data}/pwned` }, { root, denied: [data] });
      expect(out.isError).toBe(true);
      expect(text(out)).toMatch(/Amber's own data folder/);
      expect(existsSync(join(data, 'pwned'))).toBe(false);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('a timeout beyond 600 s or an empty command is refused as invalid arguments', async () => {
    expect(text(await bashTool.execute({ command: 'ls', timeout: 601 }, { root }))).toMatch(/Invalid arguments for bash: timeout/);
    expect(text(await bashTool.execute({ command: '' }, { root }))).toMatch(/Invalid arguments for bash: command/);
  });

  test('bash runs the line; on Windows without bash, PowerShell does, and the description says which', () => {
    expect(shellFor('ls', 'linux', () => false)).toMatchObject({ args: ['-c', 'ls'], name: 'bash' });
    expect(shellFor('dir', 'win32', () => false)).toEqual({
      file: 'powershell.exe',
      args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', 'dir'],
      name: 'PowerShell',
    });
    expect(shellFor('ls', 'win32', () => true)).toEqual({ file: 'bash.exe', args: ['-c', 'ls'], name: 'bash' });
    expect(createBashTool({ platform: 'win32', hasBash: () => false }).spec.description).toMatch(/\(PowerShell\)/);
  });

  test('the spec marks it a shell tool that is not read-only', () => {
    expect(bashTool.spec).toMatchObject({ name: 'bash', readOnly: false, shell: true, parallel: false, parameters: { required: ['command'] } });
  });
});

test('a command still running when the plugin process exits is killed with it, grandchildren included', async () => {
  const marker = markedSleep();
  const script = join(root, 'exits-mid-command.ts');
  writeFileSync(
    script,
    [
      `import { bashTool } from ${JSON.stringify(join(import.meta.dirname, 'bash-tool.ts'))};`,
      `void bashTool.execute({ command: 'sleep ${marker} & echo started; wait' }, {`,
      `  root: ${JSON.stringify(root)},`,
      `  update: (t) => { if (t.includes('started')) process.stdout.write('started\\n'); },`,
      `});`,
      `process.stdin.once('data', () => process.exit(0));`,
    ].join('\n'),
  );
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  const [pid] = await startedPids(() => out, marker);
  expect(isGone(pid!)).toBe(false);
  child.stdin.write('exit\n');
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  await untilGone(pid!);
});
