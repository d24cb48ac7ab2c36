// The mcp plugin running in its own process under the real plugin runtime, with its data folder in a
// temp dir and its config (the stored servers) set by the test.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createForkLauncher, discoverPlugins, PluginService, type PluginStateStore } from '../../src/main/plugins/index.ts';

export interface McpRuntime {
  dir: string;
  dataDir: string;
  service: PluginService;
  config: Record<string, unknown>;
  /** Resolves once `predicate` holds, checked now and on every change of the tools or the plugin. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function memoryStore(): PluginStateStore {
  const states = new Map<string, boolean>();
  const settings = new Map<string, string>();
  return {
    pluginStates: () => new Map(states),
    setPluginState: (id, on) => void states.set(id, on),
    getSetting: (key) => settings.get(key) ?? null,
    setSetting: (key, value) => void (value === null ? settings.delete(key) : settings.set(key, value)),
  };
}

export async function startMcpRuntime(servers: Record<string, unknown> = {}, before?: (dataDir: string) => void): Promise<McpRuntime> {
  const dir = mkdtempSync(join(tmpdir(), 'amber-mcp-'));
  const dataDir = join(dir, 'data');
  mkdirSync(join(dataDir, 'plugin-data', 'mcp'), { recursive: true });
  before?.(dataDir);
  const { plugins } = discoverPlugins({ bundledRoot: resolve(import.meta.dirname, '../../src/plugins'), bundledIds: ['mcp'] });
  const config: Record<string, unknown> = { servers, dataDir: join(dataDir, 'plugin-data', 'mcp') };
  const service = new PluginService({
    store: memoryStore(),
    dataDir,
    workspace: dir,
    plugins,
    config: () => config,
    launcher: createForkLauncher({ execArgv: [] }),
    tickIntervalMs: 0,
  });
  await service.setState('mcp', true);
  const until = (predicate: () => boolean, what: string, timeoutMs = 15_000) =>
    new Promise<void>((res, reject) => {
      if (predicate()) return res();
      const subs = [service.registries.tools.onDidChange(check), service.registries.commands.onDidChange(check), service.onDidChange(check)];
      const timer = setTimeout(() => {
        subs.forEach((s) => s.dispose());
        reject(new Error(`Timed out waiting for ${what}.`));
      }, timeoutMs);
      function check() {
        if (!predicate()) return;
        clearTimeout(timer);
        subs.forEach((s) => s.dispose());
        res();
      }
    });
  return {
    dir,
    dataDir,
    service,
    config,
    until,
    async close() {
      await service.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
