import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FRUGAL_V8_FLAGS, parseStat, signalAll } from '../../src/main/plugins/index.ts';
import type { ToolOutput } from '../../src/shared/tools/tool-spec.ts';
import { createForkLauncher } from '../../src/main/plugins/index.ts';
import { createHarness, descriptor, FIXTURES, fixture, type Harness } from './plugin-harness.ts';

// What a plugin process is given and what it leaves behind: its environment, its heap, its descendants.

let h: Harness | null = null;
const strays: number[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  signalAll(strays.splice(0), 'SIGKILL');
});

const textOf = (out: ToolOutput) => out.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

function running(pid: number): boolean {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'))?.state !== 'Z';
  } catch {
    return false;
  }
}

/** There is no event for the end of a process main did not start: poll briefly. */
async function gone(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (running(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return !running(pid);
}

async function grandchild(harness: Harness, clean = false): Promise<number> {
  const pid = Number(textOf(await harness.service.registries.tools.execute('grandchild', { clean })));
  strays.push(pid);
  expect(running(pid)).toBe(true);
  return pid;
}

test("a plugin started with main's environment holding OPENAI_API_KEY=sk-test cannot see it", async () => {
  h = createHarness(
    [fixture('probe')],
    {},
    { env: { ...process.env, OPENAI_API_KEY: 'sk-test', NODE_OPTIONS: '--require /nowhere.js', LC_ALL: 'C.UTF-8', https_proxy: 'http://127.0.0.1:9' } },
  );
  await h.service.start();
  const env = JSON.parse(textOf(await h.service.registries.tools.execute('env', {}))) as Record<string, string>;
  expect(env.OPENAI_API_KEY).toBeUndefined();
  expect(env.NODE_OPTIONS).toBeUndefined();
  expect(env).toMatchObject({ AMBER_PLUGIN_ID: 'probe', LC_ALL: 'C.UTF-8', https_proxy: 'http://127.0.0.1:9', PATH: process.env.PATH });
  expect(
    Object.keys(env).filter(
      (k) =>
        !/^(AMBER_PLUGIN_(ID|RUN)|AMBER_WORKSPACE|NODE_COMPILE_CACHE|PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|TZ|TMPDIR|TEMP|TMP|LC_.*|(http|https|no|all)_proxy|(HTTP|HTTPS|NO|ALL)_PROXY)$/.test(
          k,
        ),
    ),
  ).toEqual([]);
});

test('a polluted Object.prototype reaches neither the environment nor the spawn options of a plugin process', async () => {
  const fork = createForkLauncher({ execArgv: [] });
  const proto = Object.prototype as Record<string, unknown>;
  h = createHarness([fixture('probe')], {
    // Only while the process is started, so the rest of the test runs on a clean prototype.
    launcher: (request) => {
      proto.NODE_OPTIONS = '--require /nonexistent/amber-attacker.js';
      proto.shell = '/bin/false';
      proto.polluted = 'yes';
      try {
        return fork(request);
      } finally {
        delete proto.NODE_OPTIONS;
        delete proto.shell;
        delete proto.polluted;
      }
    },
  });
  await h.service.start();
  expect(h.service.get('probe')).toMatchObject({ state: 'active', reason: null });
  const env = JSON.parse(textOf(await h.service.registries.tools.execute('env', {}))) as Record<string, string>;
  expect(env.NODE_OPTIONS).toBeUndefined();
  expect(env.polluted).toBeUndefined();
});

test.runIf(process.platform === 'linux')('a detached grandchild is gone after switch-off, even one that dropped its environment', async () => {
  h = createHarness([fixture('probe')]);
  await h.service.start();
  const marked = await grandchild(h);
  const clean = await grandchild(h, true);
  await h.service.setState('probe', false);
  expect(await gone(marked)).toBe(true);
  expect(await gone(clean)).toBe(true);
});

test.runIf(process.platform === 'linux')('a detached grandchild is gone after its plugin crashes and restarts', async () => {
  h = createHarness([fixture('probe')], { restartBackoffMs: 50 });
  await h.service.start();
  const first = h.service.get('probe').pid!;
  const orphan = await grandchild(h);
  const failed = h.until('probe', (i) => i.state === 'failed');
  process.kill(first, 'SIGKILL');
  expect((await failed).reason).toMatch(/killed \(SIGKILL\)\. Restarting in 50 ms\./);
  const back = await h.until('probe', (i) => i.state === 'active');
  expect(back.pid).not.toBe(first);
  expect(await gone(orphan)).toBe(true);
});

test('a plugin that exhausts its capped heap dies "out of memory", and main does not grow', async () => {
  h = createHarness([fixture('probe')], { restartBackoffMs: 60_000, toolTimeoutMs: 60_000 }, { maxHeapMb: 64 });
  await h.service.start();
  const rss = process.memoryUsage().rss;
  const out = await h.service.registries.tools.execute('hog', {});
  expect(out.isError).toBe(true);
  expect(textOf(out)).toBe("The plugin 'probe' stopped: its process ran out of memory (a plugin's heap is limited to 64 MB).");
  const info = await h.until('probe', (i) => i.state === 'failed');
  expect(info.reason).toMatch(/^The plugin's process ran out of memory \(a plugin's heap is limited to 64 MB\)\./);
  expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
});

/** A plugin process's command line, from /proc. */
const argv = (harness: Harness, id: string) => readFileSync(`/proc/${harness.service.get(id).pid}/cmdline`, 'utf8').split('\0');

test.runIf(process.platform === 'linux')(
  'a bundled plugin whose manifest asks for frugal memory starts with the frugal V8 flags; a user plugin asking the same, and any other, does not',
  async () => {
    h = createHarness([descriptor(join(FIXTURES, 'probe'), { memory: 'frugal' })]);
    await h.service.start();
    expect(argv(h, 'probe')).toEqual(expect.arrayContaining([...FRUGAL_V8_FLAGS]));
    await h.close();
    h = createHarness([{ ...descriptor(join(FIXTURES, 'probe'), { memory: 'frugal' }), source: 'user' }]);
    await h.service.start();
    await h.service.setState('probe', true, { confirm: true });
    expect(h.service.get('probe').state).toBe('active');
    expect(argv(h, 'probe').filter((arg) => FRUGAL_V8_FLAGS.includes(arg))).toEqual([]);
    await h.close();
    h = createHarness([fixture('probe')]);
    await h.service.start();
    expect(argv(h, 'probe').filter((arg) => FRUGAL_V8_FLAGS.includes(arg))).toEqual([]);
  },
);
