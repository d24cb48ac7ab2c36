import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { WorkspaceService } from './workspace-service.ts';

let dir: string;
let store: SessionStore;
let home: string;
const make = (configured: string | null = null) =>
  new WorkspaceService({
    store,
    settings: new SettingsService({ store }),
    limits: { home, dataDir: join(dir, 'data'), installDirs: [join(dir, 'app')] },
    configuredDefault: () => configured,
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-ws-service-'));
  home = join(dir, 'home');
  mkdirSync(join(home, 'a'), { recursive: true });
  mkdirSync(join(home, 'b'), { recursive: true });
  mkdirSync(join(dir, 'data'));
  store = SessionStore.open(join(dir, 'data', 'amber.db'));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('WorkspaceService', () => {
  it('new conversations start in ~/Amber, made on first use, never the working directory', async () => {
    const workspaces = make();
    const path = workspaces.forNewConversation(null);
    expect(path).toBe(join(home, 'Amber'));
    expect(path).not.toBe(process.cwd());
    expect(existsSync(path)).toBe(false);
    const s = store.create({ cwd: path });
    expect(await workspaces.forRun(s.id, new AbortController().signal)).toBe(path);
    expect(existsSync(path)).toBe(true);
  });

  it('a configured folder is the default until one is chosen; then the last one used is', () => {
    const workspaces = make(join(home, 'a'));
    expect(workspaces.defaultForNew()).toBe(join(home, 'a'));
    const s = store.create({ cwd: workspaces.defaultForNew() });
    workspaces.set(s.id, join(home, 'b'));
    expect(workspaces.defaultForNew()).toBe(join(home, 'b'));
    expect(make(join(home, 'a')).defaultForNew()).toBe(join(home, 'b'));
  });

  it('a refused configured folder is skipped for the next default', () => {
    expect(make(home).defaultForNew()).toBe(join(home, 'Amber'));
    expect(make('/etc').defaultForNew()).toBe(join(home, 'Amber'));
  });

  it('set stores the real folder with the session (it survives reopening) and refuses bad ones with the reason', () => {
    const workspaces = make();
    const s = store.create({ cwd: null });
    expect(() => workspaces.set(s.id, join(dir, 'data'))).toThrow(/data folder/);
    expect(store.get(s.id).cwd).toBeNull();
    workspaces.set(s.id, '~/a');
    store.close();
    store = SessionStore.open(join(dir, 'data', 'amber.db'));
    expect(make().of(s.id)).toBe(join(home, 'a'));
  });

  it('a run in a conversation without a folder asks once and takes the folder chosen', async () => {
    const workspaces = make();
    const s = store.create({ cwd: null });
    const asked: string[] = [];
    const settled: string[] = [];
    workspaces.onDidRequest(({ sessionId }) => asked.push(sessionId));
    workspaces.onDidSettle(({ sessionId }) => settled.push(sessionId));
    const signal = new AbortController().signal;
    const first = workspaces.forRun(s.id, signal);
    const second = workspaces.forRun(s.id, signal);
    expect(asked).toEqual([s.id]);
    expect(workspaces.pending()).toEqual([{ sessionId: s.id }]);
    workspaces.set(s.id, join(home, 'a'));
    expect(await first).toBe(join(home, 'a'));
    expect(await second).toBe(join(home, 'a'));
    expect(settled).toEqual([s.id]);
    expect(workspaces.pending()).toEqual([]);
  });

  it('a stored folder that no longer passes the check (an imported session naming /) is not used: the user is asked', async () => {
    const workspaces = make();
    const s = store.create({ cwd: '/' });
    const asked: string[] = [];
    workspaces.onDidRequest(({ sessionId }) => asked.push(sessionId));
    const run = workspaces.forRun(s.id, new AbortController().signal);
    expect(asked).toEqual([s.id]);
    workspaces.set(s.id, join(home, 'a'));
    expect(await run).toBe(join(home, 'a'));
    const gone = store.create({ cwd: join(home, 'deleted-since') });
    const stop = new AbortController();
    const waiting = workspaces.forRun(gone.id, stop.signal);
    expect(workspaces.pending()).toEqual([{ sessionId: gone.id }]);
    stop.abort();
    expect(await waiting).toBeNull();
  });

  it('declining or stopping the run answers null and withdraws the question', async () => {
    const workspaces = make();
    const s = store.create({ cwd: null });
    const settled: string[] = [];
    workspaces.onDidSettle(({ sessionId }) => settled.push(sessionId));
    const declined = workspaces.forRun(s.id, new AbortController().signal);
    expect(workspaces.decline(s.id)).toBe(true);
    expect(await declined).toBeNull();
    const stop = new AbortController();
    const stopped = workspaces.forRun(s.id, stop.signal);
    stop.abort();
    expect(await stopped).toBeNull();
    expect(settled).toEqual([s.id, s.id]);
    expect(workspaces.pending()).toEqual([]);
  });

  it('completes existing folders of what was typed, hidden ones only when asked for', () => {
    mkdirSync(join(home, '.secret'));
    mkdirSync(join(home, 'apples'));
    const workspaces = make();
    expect(workspaces.complete('~/a')).toEqual([join(home, 'a'), join(home, 'apples')]);
    expect(workspaces.complete('~/')).not.toContain(join(home, '.secret'));
    expect(workspaces.complete('~/.s')).toEqual([join(home, '.secret')]);
    expect(workspaces.complete(join(dir, 'missing', 'x'))).toEqual([]);
  });
});
