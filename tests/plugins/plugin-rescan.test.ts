import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createForkLauncher, PluginService } from '../../src/main/plugins/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';

const USER_PLUGIN = resolve(import.meta.dirname, '../fixtures/user-plugins/hello_user');
let cleanup: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

test('rescan finds a user plugin added after start and lists it off until the user confirms it; a known plugin is left alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'amber-rescan-'));
  const store = SessionStore.open(join(dir, 'amber.db'));
  const service = new PluginService({ store, dataDir: dir, workspace: dir, launcher: createForkLauncher({ execArgv: [] }), shutdownGraceMs: 1000 });
  cleanup = async () => {
    await service.dispose();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  await service.start();
  expect(service.userFolder).toBe(join(dir, 'plugins'));
  expect(service.list().some((p) => p.id === 'hello_user')).toBe(false);
  const before = service.list().map((p) => p.id);

  mkdirSync(service.userFolder, { recursive: true });
  cpSync(USER_PLUGIN, join(service.userFolder, 'hello_user'), { recursive: true });
  mkdirSync(join(service.userFolder, 'broken'));

  expect(await service.rescan()).toEqual(['hello_user']);
  // Its manifest says enabledByDefault, but a user plugin is never switched on by its manifest.
  expect(service.get('hello_user')).toMatchObject({ source: 'user', state: 'registered', enabled: false, pid: null, needsConfirmation: true });
  expect(service.registries.tools.specs().some((t) => t.name === 'hello_user')).toBe(false);
  const info = await service.setState('hello_user', true, { confirm: true });
  expect(info).toMatchObject({ source: 'user', state: 'active', enabled: true, needsConfirmation: false, declares: ['tool', 'statusSegment'] });
  expect(service.registries.tools.specs().some((t) => t.name === 'hello_user')).toBe(true);
  expect(service.problems.map((p) => p.dir)).toEqual([join(service.userFolder, 'broken')]);
  expect(service.list().map((p) => p.id)).toEqual([...before, 'hello_user']);
  expect(await service.rescan()).toEqual([]);
});
