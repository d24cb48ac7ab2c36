import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
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

/** Runs a command and resolves the first pid it prints (a background grandchild), with the pending result. */
function runUntilPid(command: string, ctx: Partial<WorkspaceToolContext> = {}, tool = bashTool) {
  let streamed = '';
  let gotPid!: (pid: number) => void;
  const pid = new Promise<number>((res) => (gotPid = res));
  const result = tool.execute(
    { command, ...(ctx as { timeout?: number }) },
    {
      root,
      ...ctx,
      update: (t) => {
        streamed += t;
        const m = /pid=(\d+)\n/.exec(streamed);
        if (m) gotPid(Number(m[1]));
      },
    },
  );
  return { pid, result };
}

describe('bash', () => {
  test('runs in the workspace folder and reports the exit code', async () => {
    const out = await bashTool.execute({ command: 'pwd && ls' }, { root });
    expect(out.isError).toBe(false);
    expect(text(out)).toBe(`${root}\nhello.txt\n\n[Exit code 0]`);
    expect(out.details).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
  });

  test('a non-zero exit is an error result the model reads, with the output before it', async () => {
    const out = await bashTool.execute({ command: 'echo partial; echo oops >&2; exit 3' }, { root });
    expect(out.isError).toBe(true);
    expect(text(out)).toBe('partial\noops\n\n[Exit code 3]');
    expect(out.details).toMatchObject({ exitCode: 3 });
  });

  test('a command killed by a signal reports the signal as an error', async () => {
    const out = await bashTool.execute({ command: 'echo before; kill -9 $$' }, { root });
    expect(out).toMatchObject({ isError: true, details: { exitCode: null, signal: 'SIGKILL' } });
    expect(text(out)).toBe('before\n\n[Killed by SIGKILL.]');
  });

  test('stdin is empty: a command that reads input ends at once', async () => {
    const out = await bashTool.execute({ command: 'cat; read x; echo "got:$x"' }, { root });
    expect(text(out)).toBe('got:\n\n[Exit code 0]');
  });

  test('stdout and stderr arrive interleaved in order, streamed as they come', async () => {
    const updates: string[] = [];
    const out = await bashTool.execute({ command: 'for i in 1 2 3; do echo out$i; sleep 0.1; echo err$i >&2; sleep 0.1; done' }, { root, update: (t) => updates.push(t) });
    expect(text(out)).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n\n[Exit code 0]');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.join('')).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n');
  });

  test('a background process the command started does not outlive the call', async () => {
    const { pid, result } = runUntilPid('sleep 300 & echo pid=$!');
    const grandchild = await pid;
    const out = await result;
    expect(text(out)).toMatch(/\[Exit code 0\]$/);
    await untilGone(grandchild);
  });

  test('stop (the abort signal) ends the whole process group, grandchildren included', async () => {
    const controller = new AbortController();
    const { pid, result } = runUntilPid('sleep 300 & echo pid=$!; wait', { signal: controller.signal });
    const grandchild = await pid;
    expect(isGone(grandchild)).toBe(false);
    controller.abort();
    const out = await result;
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/Stopped by the user/);
    expect(out.details).toMatchObject({ stopped: true });
    await untilGone(grandchild);
  });

  test('the timeout ends the group; a process ignoring SIGTERM gets SIGKILL after the grace period', async () => {
    const tool = createBashTool({ graceMs: 200 });
    const { pid, result } = runUntilPid('trap "" TERM; sleep 300 & echo pid=$!; while true; do sleep 0.05; done', { timeout: 0.5 } as Partial<WorkspaceToolContext>, tool);
    const grandchild = await pid;
    const out = await result;
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/Stopped after 0.5 s \(the timeout\)/);
    expect(out.details).toMatchObject({ timedOut: true });
    await untilGone(grandchild);
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
    expect(shellFor('dir', 'win32', () => false)).toEqual({ file: 'powershell.exe', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', 'dir'], name: 'PowerShell' });
    expect(shellFor('ls', 'win32', () => true)).toEqual({ file: 'bash.exe', args: ['-c', 'ls'], name: 'bash' });
    expect(createBashTool({ platform: 'win32', hasBash: () => false }).spec.description).toMatch(/\(PowerShell\)/);
  });

  test('the spec marks it a shell tool that is not read-only', () => {
    expect(bashTool.spec).toMatchObject({ name: 'bash', readOnly: false, shell: true, parameters: { required: ['command'] } });
  });
});

test('a command still running when the plugin process exits is killed with it, grandchildren included', async () => {
  const script = join(root, 'exits-mid-command.ts');
  writeFileSync(
    script,
    [
      `import { bashTool } from ${JSON.stringify(join(import.meta.dirname, 'bash-tool.ts'))};`,
      `void bashTool.execute({ command: 'sleep 300 & echo pid=$!; wait' }, {`,
      `  root: ${JSON.stringify(root)},`,
      `  update: (t) => { const m = /pid=(\\d+)/.exec(t); if (m) { process.stdout.write(m[1] + '\\n'); process.exit(0); } },`,
      `});`,
    ].join('\n'),
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  const grandchild = Number(out.trim());
  expect(grandchild).toBeGreaterThan(0);
  await untilGone(grandchild);
});
