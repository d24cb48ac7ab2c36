import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { probeSandbox, type SpawnProgram } from './sandbox-probe.ts';

// The probe starts real programs: a stand-in for bwrap is a real process that fails the way a broken one does.
const running =
  (file: string, args: string[] = []): SpawnProgram =>
  (_file, _args, options) =>
    spawn(file, args, options);
const found = (name: string) => `/opt/fake/${name}`;
const throwing: SpawnProgram = () => {
  throw new Error('spawn exploded');
};

describe('probing for a sandbox', () => {
  test('Windows has none, and the status says what to do', async () => {
    const status = await probeSandbox({ platform: 'win32', spawn: throwing });
    expect(status).toMatchObject({ available: false, reason: expect.stringMatching(/Windows has no sandbox/), fix: expect.stringMatching(/WSL/) });
  });

  test('Linux without bwrap has none, and the fix names bubblewrap', async () => {
    const status = await probeSandbox({ platform: 'linux', find: () => null });
    expect(status).toMatchObject({
      available: false,
      reason: expect.stringMatching(/bubblewrap \(bwrap\) is not installed/),
      fix: expect.stringMatching(/apt install bubblewrap/),
    });
  });

  test('a bwrap that cannot start a sandbox is no sandbox, with what it printed as the reason', async () => {
    const status = await probeSandbox({
      platform: 'linux',
      find: found,
      spawn: running('/bin/sh', ['-c', 'echo "bwrap: No permissions to creating new namespace" >&2; exit 1']),
    });
    expect(status).toEqual({
      available: false,
      reason: 'bubblewrap is installed but could not start a sandbox: bwrap: No permissions to creating new namespace.',
      fix: expect.stringMatching(/user namespaces/),
    });
  });

  test('a program that cannot be started, hangs or throws is no sandbox, and the probe never throws', async () => {
    expect(await probeSandbox({ platform: 'linux', find: found, spawn: running('/nonexistent/bwrap') })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/ENOENT/),
    });
    expect(await probeSandbox({ platform: 'linux', find: found, spawn: running('/bin/sleep', ['30']), timeoutMs: 200 })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/did not finish within 200 ms/),
    });
    expect(await probeSandbox({ platform: 'linux', find: found, spawn: throwing })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/spawn exploded/),
    });
  });

  test('a bwrap that starts its trial sandbox means bubblewrap is there; it was asked for exactly that sandbox', async () => {
    const seen: string[][] = [];
    const status = await probeSandbox({
      platform: 'linux',
      find: found,
      spawn: (file, args, options) => (seen.push([file, ...args]), spawn('/bin/true', [], options)),
    });
    expect(status).toEqual({ available: true, kind: 'bubblewrap' });
    expect(seen).toEqual([['/opt/fake/bwrap', '--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true']]);
  });

  test.runIf(process.platform === 'linux' && existsSync('/usr/bin/bwrap'))('the real bubblewrap here starts a sandbox', async () => {
    expect(await probeSandbox()).toEqual({ available: true, kind: 'bubblewrap' });
  });

  test('macOS uses sandbox-exec', async () => {
    const seen: string[] = [];
    const status = await probeSandbox({ platform: 'darwin', find: found, spawn: (file, _args, options) => (seen.push(file), spawn('/bin/true', [], options)) });
    expect(status).toEqual({ available: true, kind: 'seatbelt' });
    expect(seen).toEqual(['/opt/fake/sandbox-exec']);
  });
});
