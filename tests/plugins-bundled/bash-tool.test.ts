import { realpathSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../src/shared/tools/index.ts';
import { type BundledRuntime, isGone, startBundled, tempDir, untilGone } from './bundled-runtime.ts';
import { markedSleep, startedPids } from './marked-processes.ts';

// The bash tool of the workspace-tools plugin, run in the plugin's own process through main's tool
// registry, the way the agent runs it: output streams back through $toolUpdate, stop goes through $cancel.

let data: ReturnType<typeof tempDir>;
let ws: ReturnType<typeof tempDir>;
let workspace: string;
let runtime: BundledRuntime | null = null;

beforeEach(async () => {
  data = tempDir('amber-bash-data-');
  ws = tempDir('amber-bash-ws-');
  workspace = realpathSync(ws.path);
  writeFileSync(`${workspace}/marker.txt`, 'here\n');
  runtime = await startBundled(['workspace-tools'], { dataDir: data.path, callTimeoutMs: 10_000 });
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  ws.remove();
  data.remove();
});

const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

function run(command: string, options: { timeout?: number; signal?: AbortSignal; onUpdate?: (t: string) => void } = {}): Promise<ToolOutput> {
  const args = { command, ...(options.timeout !== undefined ? { timeout: options.timeout } : {}) };
  return runtime!.service.registries.tools.execute('bash', args, options.signal, { sessionId: 's1', workspace, denied: [data.path] }, options.onUpdate);
}

/** Runs a command that starts a marked `sleep` (`sleep` is replaced) and says "started"; resolves its host pid and the pending result. */
function runMarked(command: string, options: { timeout?: number; signal?: AbortSignal } = {}) {
  const marker = markedSleep();
  let streamed = '';
  const result = run(command.replace('sleep', `sleep ${marker}`), { ...options, onUpdate: (t) => (streamed += t) });
  return { pid: startedPids(() => streamed, marker).then(([pid]) => pid!), result };
}

describe('bash through the workspace-tools plugin process', () => {
  test('is installed as a shell tool', () => {
    expect(runtime!.service.registries.tools.get('bash')?.value.spec).toMatchObject({ name: 'bash', readOnly: false, shell: true, parallel: false });
  });

  test("ls and node --version run in the conversation's workspace folder", async () => {
    const out = await run('pwd; ls; node --version');
    expect(out.isError).toBe(false);
    expect(text(out)).toMatch(new RegExp(`^${workspace}\\nmarker.txt\\nv\\d+\\.\\d+\\.\\d+\\n\\n\\[Exit code 0\\]$`));
  });

  test('output streams to the card in several updates before the result', async () => {
    const updates: string[] = [];
    let resultAt = -1;
    const out = await run('for i in 1 2 3 4 5; do echo line$i; sleep 0.15; done', { onUpdate: (t) => updates.push(t) }).finally(
      () => (resultAt = updates.length),
    );
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(resultAt).toBe(updates.length);
    expect(updates.join('')).toBe('line1\nline2\nline3\nline4\nline5\n');
    expect(text(out)).toBe('line1\nline2\nline3\nline4\nline5\n\n[Exit code 0]');
  });

  test('a non-zero exit code is reported as an error result', async () => {
    const out = await run('echo failing >&2; exit 7');
    expect(out).toMatchObject({ isError: true, details: { exitCode: 7, sandbox: 'read' } });
    expect(text(out)).toMatch(/^failing\n\n\[Exit code 7\]\n\[It ran in the read-only sandbox/);
  });

  test('stop ends a long command and leaves no process behind, grandchildren included', async () => {
    const controller = new AbortController();
    const { pid, result } = runMarked('sleep & echo started; wait', { signal: controller.signal });
    const grandchild = await pid;
    expect(isGone(grandchild)).toBe(false);
    controller.abort();
    expect(text(await result)).toMatch(/aborted/);
    await untilGone(grandchild);
  });

  test('the timeout kills the whole process group', async () => {
    const { pid, result } = runMarked('sleep & echo started; sleep 300', { timeout: 0.5 });
    const grandchild = await pid;
    const out = await result;
    expect(out).toMatchObject({ isError: true, details: { timedOut: true } });
    expect(text(out)).toMatch(/Stopped after 0.5 s \(the timeout\)/);
    await untilGone(grandchild);
  });

  test('switching the plugin off ends a running command and everything it started', async () => {
    const { pid, result } = runMarked('sleep & echo started; wait');
    const grandchild = await pid;
    await runtime!.service.setState('workspace_tools', false);
    expect((await result).isError).toBe(true);
    await untilGone(grandchild);
  });

  test("a command naming Amber's data folder is refused in the plugin before it runs", async () => {
    const out = await run(`cat ${data.path}/amber.db`);
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/Amber's own data folder/);
  });
});
