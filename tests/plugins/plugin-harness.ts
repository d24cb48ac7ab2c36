// Test harness: a PluginService over real child processes, with its data dir in a fresh temp dir, a config
// map the test can change at any time, and a record of every pid launched so that orphans are caught.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PluginManifest } from '../../src/shared/plugins/plugin-manifest.ts';
import {
  createForkLauncher,
  type ForkLauncherOptions,
  type PluginDescriptor,
  type PluginInfo,
  type PluginLauncher,
  type PluginProcess,
  PluginService,
  type PluginServiceOptions,
} from '../../src/main/plugins/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';

const root = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(root, 'tests/fixtures/plugins');
export const EXAMPLE_DIR = join(root, 'src/plugins/example');
/** A plugin process that writes raw messages: started in place of the plugin host. */
export const HOSTILE_HOST = join(FIXTURES, 'hostile/host.ts');

/** A descriptor for a plugin folder, optionally under another id (to run one fixture several times). */
export function descriptor(dir: string, overrides: Partial<PluginManifest> = {}): PluginDescriptor {
  const manifest = PluginManifest.parse({ ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), ...overrides });
  return { manifest, source: 'bundled', entry: join(dir, manifest.entry), dir };
}

export const fixture = (name: string, overrides: Partial<PluginManifest> = {}) => descriptor(join(FIXTURES, name), { enabledByDefault: true, ...overrides });
export const example = (overrides: Partial<PluginManifest> = {}) => descriptor(EXAMPLE_DIR, { enabledByDefault: true, ...overrides });

export interface Harness {
  dir: string;
  store: SessionStore;
  service: PluginService;
  config: Map<string, Record<string, unknown>>;
  pids: Set<number>;
  /** Resolves with the plugin's info once `predicate` holds (checked now and on every change). */
  until(id: string, predicate: (info: PluginInfo) => boolean, timeoutMs?: number): Promise<PluginInfo>;
  /** Resolves with the payload of the next event on `topic`. */
  nextEvent(topic: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface HarnessLaunch extends ForkLauncherOptions {
  /** Per plugin id, a process to start instead of the plugin host (e.g. HOSTILE_HOST). */
  hostEntries?: Record<string, string>;
  /** Hears every process started, with the plugin it runs. */
  onLaunch?: (pluginId: string, process: PluginProcess) => void;
}

export function createHarness(plugins: PluginDescriptor[], options: Partial<PluginServiceOptions> = {}, launch: HarnessLaunch = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'amber-plugins-'));
  const store = SessionStore.open(join(dir, 'amber.db'));
  const config = new Map<string, Record<string, unknown>>();
  const pids = new Set<number>();
  const { hostEntries = {}, onLaunch, ...forkOptions } = launch;
  const forks = new Map<string, PluginLauncher>();
  const fork: PluginLauncher = (request) => {
    const hostEntry = hostEntries[request.pluginId];
    const key = hostEntry ?? '';
    let launcher = forks.get(key);
    if (!launcher) {
      launcher = createForkLauncher({ execArgv: [], ...forkOptions, ...(hostEntry ? { hostEntry } : {}) });
      forks.set(key, launcher);
    }
    const proc = launcher(request);
    onLaunch?.(request.pluginId, proc);
    return proc;
  };
  const service = new PluginService({
    store,
    dataDir: dir,
    workspace: dir,
    plugins,
    config: (id) => config.get(id) ?? {},
    launcher: (request) => {
      const proc = fork(request);
      if (proc.pid) pids.add(proc.pid);
      return proc;
    },
    // Fixtures count as bundled plugins; each gets a process of its own unless a test asks for shared hosts.
    sharedHosts: false,
    initializeTimeoutMs: 5000,
    callTimeoutMs: 5000,
    shutdownGraceMs: 1000,
    restartBackoffMs: 100,
    ...options,
  });
  const harness: Harness = {
    dir,
    store,
    service,
    config,
    pids,
    until(id, predicate, timeoutMs = 10_000) {
      return new Promise((resolvePromise, reject) => {
        const now = service.get(id);
        if (predicate(now)) return resolvePromise(now);
        const timer = setTimeout(() => {
          sub.dispose();
          reject(new Error(`Timed out waiting on '${id}': it is ${service.get(id).state} (${service.get(id).reason ?? 'no reason'}).`));
        }, timeoutMs);
        const sub = service.onDidChange((info) => {
          if (info.id === id && predicate(info)) {
            clearTimeout(timer);
            sub.dispose();
            resolvePromise(info);
          }
        });
      });
    },
    nextEvent(topic, timeoutMs = 10_000) {
      return new Promise((resolvePromise, reject) => {
        const timer = setTimeout(() => {
          sub.dispose();
          reject(new Error(`No '${topic}' event within ${timeoutMs} ms.`));
        }, timeoutMs);
        const sub = service.events.on(topic, (payload) => {
          clearTimeout(timer);
          sub.dispose();
          resolvePromise(payload);
        });
      });
    },
    async close() {
      await service.dispose();
      store.close();
      rmSync(dir, { recursive: true, force: true });
      const orphans = [...pids].filter(isAlive);
      if (orphans.length) throw new Error(`Plugin processes outlived the runtime: ${orphans.join(', ')}`);
    },
  };
  return harness;
}
