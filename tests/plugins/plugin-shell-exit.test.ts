import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { findDescendants, parseStat, signalAll } from '../../src/main/plugins/index.ts';

// Plugin processes lead process groups of their own, so a signal to the shell's group no longer reaches
// them: the headless shell must end them itself when it is told to stop.

const root = resolve(import.meta.dirname, '../..');

function running(pid: number): boolean {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'))?.state !== 'Z';
  } catch {
    return false;
  }
}

/** There is no event for the start or end of another process's children: poll briefly. */
async function until(condition: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (!condition() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return condition();
}

test.runIf(process.platform === 'linux').each(['SIGTERM', 'SIGINT'] as const)(
  'the headless shell stopped with %s ends every plugin process it started',
  async (signal) => {
    const dir = mkdtempSync(join(tmpdir(), 'amber-shell-exit-'));
    const shell = spawn(process.execPath, [join(root, 'src/main/headless/headless-main.ts'), '--data-dir', dir, '--port', '0'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '', AMBER_WORKSPACE: dir },
    });
    let plugins: number[] = [];
    try {
      await new Promise<void>((resolvePromise, reject) => {
        shell.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('is running at')) resolvePromise();
        });
        shell.once('exit', (code) => reject(new Error(`The shell exited early with code ${code}.`)));
      });
      expect(await until(() => findDescendants([shell.pid!]).length >= 1, 20_000)).toBe(true);
      plugins = findDescendants([shell.pid!]);
      expect(plugins.every(running)).toBe(true);
      const exited = new Promise<number | null>((r) => shell.once('exit', (code) => r(code)));
      shell.kill(signal);
      expect(await exited).toBe(0);
      expect(await until(() => !plugins.some(running), 10_000)).toBe(true);
    } finally {
      if (shell.exitCode === null && shell.signalCode === null) shell.kill('SIGKILL');
      signalAll(plugins, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test.runIf(process.platform === 'linux')(
  'a main process that exits without stopping its plugins still takes them and their detached grandchildren along',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amber-main-exit-'));
    const app = spawn(process.execPath, [join(root, 'tests/fixtures/plugins/app-runner.ts'), dir, 'grandchild'], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let started: { pids: number[]; grandchild: number } | null = null;
    try {
      started = await new Promise<{ pids: number[]; grandchild: number }>((resolvePromise, reject) => {
        let out = '';
        app.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolvePromise(JSON.parse(out.split('\n')[0]!));
        });
        app.once('exit', (code) => reject(new Error(`The app exited early with code ${code}.`)));
      });
      const all = [...started.pids, started.grandchild];
      expect(all.every(running)).toBe(true);
      const exited = new Promise((r) => app.once('exit', r));
      app.stdin!.write('exit\n');
      await exited;
      expect(await until(() => !all.some(running), 3000)).toBe(true);
    } finally {
      if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
      if (started) signalAll([...started.pids, started.grandchild], 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
