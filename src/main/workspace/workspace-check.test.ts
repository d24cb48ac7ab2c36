import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWorkspace, type WorkspaceLimits } from './workspace-check.ts';

let dir: string;
let limits: WorkspaceLimits;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-ws-check-'));
  const home = join(dir, 'home');
  mkdirSync(join(home, 'project'), { recursive: true });
  mkdirSync(join(dir, 'data', 'plugin-data'), { recursive: true });
  mkdirSync(join(dir, 'app', 'resources'), { recursive: true });
  limits = { home, dataDir: join(dir, 'data'), installDirs: [join(dir, 'app')], platform: 'linux' };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const refused = (input: string) => {
  const checked = checkWorkspace(input, limits);
  if (checked.ok) throw new Error(`${input} was accepted as a workspace`);
  return checked.reason;
};

describe('checkWorkspace', () => {
  it('accepts a folder of the user and returns its real path', () => {
    expect(checkWorkspace(join(limits.home, 'project'), limits)).toEqual({ ok: true, path: join(limits.home, 'project') });
    expect(checkWorkspace('~/project', limits)).toEqual({ ok: true, path: join(limits.home, 'project') });
  });

  it('refuses the disk root, the home folder itself and system folders, each with a reason', () => {
    expect(refused('/')).toMatch(/whole disk/);
    expect(refused(limits.home)).toMatch(/your home folder/);
    expect(refused('~')).toMatch(/your home folder/);
    expect(refused('/etc')).toMatch(/system folder/);
    expect(refused('/usr/lib')).toMatch(/system folder/);
    expect(refused('/proc/self')).toMatch(/system folder/);
    expect(refused('/tmp')).toMatch(/system folder/);
  });

  it("refuses Amber's data folder and anything inside it, and the install folder", () => {
    expect(refused(limits.dataDir)).toMatch(/data folder/);
    expect(refused(join(limits.dataDir, 'plugin-data'))).toMatch(/data folder/);
    expect(refused(join(dir, 'app'))).toMatch(/Amber itself is installed/);
    expect(refused(join(dir, 'app', 'resources'))).toMatch(/Amber itself is installed/);
  });

  it('refuses a link that leads to a refused folder, checking where it really goes', () => {
    symlinkSync(limits.dataDir, join(limits.home, 'innocent'));
    symlinkSync('/', join(limits.home, 'disk'));
    expect(refused(join(limits.home, 'innocent'))).toMatch(/data folder/);
    expect(refused(join(limits.home, 'disk'))).toMatch(/whole disk/);
  });

  it('refuses relative paths, missing folders, files, NUL and empty input', () => {
    expect(refused('project')).toMatch(/not a full path/);
    expect(refused('../..')).toMatch(/not a full path/);
    expect(refused(join(limits.home, 'nope'))).toMatch(/There is no folder/);
    writeFileSync(join(limits.home, 'file.txt'), 'x');
    expect(refused(join(limits.home, 'file.txt'))).toMatch(/is a file/);
    expect(refused(`${limits.home}/project\0/etc`)).toMatch(/NUL/);
    expect(refused('   ')).toMatch(/full path/);
  });

  it('/ws2 is not inside a refused /ws', () => {
    mkdirSync(`${limits.dataDir}2`);
    expect(checkWorkspace(`${limits.dataDir}2`, limits).ok).toBe(true);
  });

  it('compares without case where the system does (a case variant of the data folder is refused on macOS)', () => {
    const mac = { ...limits, platform: 'darwin' as const };
    const variant = join(dir, 'DATA');
    mkdirSync(variant);
    const checked = checkWorkspace(variant, mac);
    expect(checked.ok).toBe(false);
  });
});
