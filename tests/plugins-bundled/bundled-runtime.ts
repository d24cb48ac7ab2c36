// Test harness: the real plugin runtime (one forked process per plugin) running bundled plugins found by
// discovery in src/plugins, with a config map the test changes at will and every pid remembered so that a
// process outliving the runtime fails the test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Disposable } from '../../src/shared/disposable.ts';
import { createForkLauncher, discoverPlugins, PluginService, type PluginServiceOptions, type PluginStateStore } from '../../src/main/plugins/index.ts';

export const BUNDLED_ROOT = resolve(import.meta.dirname, '../../src/plugins');

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Gone, or a zombie nobody reaped yet: either way it runs no more. */
export function isGone(pid: number): boolean {
  if (!isAlive(pid)) return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/**
 * Resolves once the process is gone. Main hears nothing about a tool's grandchildren, and a killed process
 * closes its pipes a moment before the kernel marks it a zombie, so its state is watched, turn by turn.
 */
export async function untilGone(pid: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!isGone(pid)) {
    if (Date.now() > deadline) throw new Error(`Process ${pid} is still running.`);
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** On/off state and settings in memory: enough for the runtime, which reads config through `config`. */
function memoryStateStore(): PluginStateStore {
  const states = new Map<string, boolean>();
  const settings = new Map<string, string>();
  return {
    pluginStates: () => new Map(states),
    setPluginState: (id, on) => void states.set(id, on),
    getSetting: (key) => settings.get(key) ?? null,
    setSetting: (key, value) => void (value === null ? settings.delete(key) : settings.set(key, value)),
  };
}

export interface BundledRuntime {
  service: PluginService;
  config: Map<string, Record<string, unknown>>;
  pids: Set<number>;
  /** Resolves once `predicate` holds, checked now and on every change of the runtime or any registry. */
  until<T>(predicate: () => T | undefined | null | false, what: string, timeoutMs?: number): Promise<T>;
  /** Stops every plugin and fails when one of their processes is still alive. */
  close(): Promise<void>;
}

export async function startBundled(
  ids: string[],
  options: { dataDir: string; config?: Map<string, Record<string, unknown>> } & Omit<Partial<PluginServiceOptions>, 'config' | 'dataDir'>,
): Promise<BundledRuntime> {
  const { plugins, problems } = discoverPlugins({ bundledRoot: BUNDLED_ROOT, bundledIds: ids });
  if (problems.length) throw new Error(problems.map((p) => `${p.dir}: ${p.reason}`).join('\n'));
  const config = options.config ?? new Map<string, Record<string, unknown>>();
  const pids = new Set<number>();
  const fork = createForkLauncher({ execArgv: [] });
  const { config: _config, ...rest } = options;
  const service = new PluginService({
    store: memoryStateStore(),
    workspace: options.dataDir,
    plugins,
    config: (id) => config.get(id) ?? {},
    launcher: (request) => {
      const proc = fork(request);
      if (proc.pid) pids.add(proc.pid);
      return proc;
    },
    initializeTimeoutMs: 10_000,
    callTimeoutMs: 10_000,
    shutdownGraceMs: 2000,
    tickIntervalMs: 0,
    ...rest,
  });
  await service.start();
  // Folder names need not be ids (workspace-tools holds workspace_tools): check each plugin by its id. A lazy
  // plugin is ready without a process (idle): its first use starts it.
  for (const { manifest } of plugins) {
    const id = manifest.id;
    const info = service.get(id);
    if (info.state !== 'active' && info.state !== 'idle') {
      await service.dispose();
      throw new Error(`The plugin '${id}' is ${info.state}: ${info.reason ?? 'no reason given'}`);
    }
  }
  return {
    service,
    config,
    pids,
    until(predicate, what, timeoutMs = 10_000) {
      return new Promise((resolvePromise, reject) => {
        const subs: Disposable[] = [];
        const stop = () => {
          clearTimeout(timer);
          for (const s of subs) s.dispose();
        };
        const test = () => {
          const value = predicate();
          if (value) {
            stop();
            resolvePromise(value);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`Timed out waiting for ${what}.`));
        }, timeoutMs);
        if (test()) return;
        const r = service.registries;
        for (const registry of [r.statusSegments, r.panels, r.wallets, r.allowances, r.commands, r.tools, r.promptBlocks, r.providers])
          subs.push(registry.onDidChange(test));
        subs.push(service.onDidChange(test));
      });
    },
    async close() {
      await service.dispose();
      const orphans = [...pids].filter(isAlive);
      if (orphans.length) throw new Error(`Plugin processes outlived the runtime: ${orphans.join(', ')}`);
    },
  };
}
