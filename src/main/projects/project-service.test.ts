import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { checkWorkspace } from '../workspace/index.ts';
import { AmberError } from '../errors.ts';
import { type ProjectChangeEvent, ProjectService } from './project-service.ts';

let dir: string;
let home: string;
let store: SessionStore;
let settings: SettingsService;
let projects: ProjectService;
let events: ProjectChangeEvent[];

const open = (): ProjectService =>
  new ProjectService({
    settings,
    clock: () => 1000,
    resolveFolder: (input) => {
      const checked = checkWorkspace(input, { home, dataDir: join(dir, 'data'), installDirs: [] });
      if (!checked.ok) throw new AmberError('invalid_input', checked.reason);
      return checked.path;
    },
  });

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-projects-')));
  home = join(dir, 'home');
  mkdirSync(join(home, 'site'), { recursive: true });
  mkdirSync(join(home, 'api'), { recursive: true });
  mkdirSync(join(dir, 'data'), { recursive: true });
  store = SessionStore.open(join(dir, 'amber.db'));
  settings = new SettingsService({ store });
  projects = open();
  events = [];
  projects.onDidChange((e) => events.push(e));
});

afterEach(() => {
  projects.dispose();
  settings.dispose();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a project is created from a folder, found by its folder, and kept across a restart', () => {
  const site = projects.create({
    name: 'Web site',
    folder: join(home, 'site'),
    instructions: '  Use British spelling.  ',
    thinkingLevel: 'high',
    policyMode: 'read',
  });
  expect(site).toMatchObject({
    id: 'web-site',
    name: 'Web site',
    folder: join(home, 'site'),
    instructions: 'Use British spelling.',
    model: null,
    thinkingLevel: 'high',
    policyMode: 'read',
    createdAt: 1000,
  });
  expect(events).toEqual([{ kind: 'saved', project: site }]);
  expect(projects.ofFolder(join(home, 'site'))?.id).toBe('web-site');
  expect(projects.ofFolder(join(home, 'api'))).toBeNull();
  expect(projects.instructionsOf(join(home, 'site'))).toBe('Use British spelling.');
  expect(projects.defaultsOf('web-site')).toEqual({ model: null, thinkingLevel: 'high', policyMode: 'read' });
  const again = open();
  expect(again.list()).toEqual([site]);
  expect(again.find('WEB SITE')?.id).toBe('web-site');
});

test('two projects may not share a name (any case) or a folder, and a taken id gets a number', () => {
  projects.create({ name: 'Site', folder: join(home, 'site') });
  expect(() => projects.create({ name: 'site', folder: join(home, 'api') })).toThrow(/already a project named "Site"/);
  expect(() => projects.create({ name: 'Other', folder: `${join(home, 'site')}/` })).toThrow(/already the folder of the project "Site"/);
  const api = projects.create({ name: 'Site!', folder: join(home, 'api') });
  expect(api.id).toBe('site-2');
  expect(() => projects.update(api.id, { name: 'SITE' })).toThrow(/already a project named/);
  expect(projects.list().map((p) => p.id)).toEqual(['site', 'site-2']);
});

test('a folder that is missing, relative or a system folder is refused with the reason', () => {
  expect(() => projects.create({ name: 'Gone', folder: join(home, 'missing') })).toThrow(/There is no folder/);
  expect(() => projects.create({ name: 'Rel', folder: 'site' })).toThrow(/not a full path/);
  expect(() => projects.create({ name: 'Etc', folder: '/etc' })).toThrow(AmberError);
  expect(() => projects.create({ name: 'Blank', folder: '  ' })).toThrow(/Choose the folder/);
  writeFileSync(join(home, 'file.txt'), 'x');
  expect(() => projects.create({ name: 'File', folder: join(home, 'file.txt') })).toThrow(/is a file/);
  expect(projects.list()).toEqual([]);
  expect(events).toEqual([]);
});

test('an update changes only the fields given and null clears a default; remove announces the id', () => {
  const site = projects.create({ name: 'Site', folder: join(home, 'site'), model: { provider: 'local', modelId: 'm1' }, policyMode: 'yolo' });
  const changed = projects.update(site.id, { instructions: 'Be brief.', model: null });
  expect(changed).toEqual({ ...site, instructions: 'Be brief.', model: null });
  projects.update(site.id, { folder: join(home, 'api') });
  expect(projects.ofFolder(join(home, 'site'))).toBeNull();
  expect(projects.ofFolder(join(home, 'api'))?.id).toBe('site');
  projects.remove(site.id);
  expect(events.at(-1)).toEqual({ kind: 'removed', id: 'site' });
  expect(() => projects.get(site.id)).toThrow(/There is no project "site"/);
  expect(() => projects.remove(site.id)).toThrow(/There is no project/);
});
