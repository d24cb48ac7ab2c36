import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AmberError } from '../errors.ts';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { WorkspaceService } from './workspace-service.ts';

let dir: string;
let store: SessionStore;
let home: string;
let workspaces: WorkspaceService;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-ws-create-')));
  home = join(dir, 'home');
  mkdirSync(join(home, 'a'), { recursive: true });
  mkdirSync(join(dir, 'data'));
  store = SessionStore.open(join(dir, 'data', 'amber.db'));
  workspaces = new WorkspaceService({
    store,
    settings: new SettingsService({ store }),
    limits: { home, dataDir: join(dir, 'data'), installDirs: [join(dir, 'app')] },
  });
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const codeOf = (run: () => unknown): string | null => {
  try {
    run();
    return null;
  } catch (e) {
    return e instanceof AmberError ? e.code : 'other';
  }
};

test('a missing folder is not_found, and is made (parents too) only when asked to create it', () => {
  const s = store.create({ cwd: null });
  const target = join(home, 'projects', 'new-app');
  expect(codeOf(() => workspaces.set(s.id, target))).toBe('not_found');
  expect(existsSync(target)).toBe(false);
  expect(workspaces.set(s.id, '~/projects/new-app', { create: true }).cwd).toBe(target);
  expect(existsSync(target)).toBe(true);
});

test('a folder that would be refused once made is not made: inside the data folder, or the home folder itself', () => {
  const s = store.create({ cwd: null });
  expect(codeOf(() => workspaces.set(s.id, join(dir, 'data', 'inside'), { create: true }))).toBe('invalid_input');
  expect(existsSync(join(dir, 'data', 'inside'))).toBe(false);
  expect(codeOf(() => workspaces.set(s.id, '/', { create: true }))).toBe('invalid_input');
});

test('the folders chosen last are offered newest first, without repeats or folders gone since', () => {
  const s = store.create({ cwd: null });
  mkdirSync(join(home, 'b'));
  workspaces.set(s.id, join(home, 'a'));
  workspaces.set(s.id, join(home, 'b'));
  workspaces.set(s.id, join(home, 'a'));
  expect(workspaces.recent()).toEqual([join(home, 'a'), join(home, 'b')]);
  rmSync(join(home, 'b'), { recursive: true });
  expect(workspaces.recent()).toEqual([join(home, 'a')]);
});
