import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { bwrapFix, findBwrap, type ProbeChild, probeSandbox, type SandboxProbeOptions } from './sandbox-probe.ts';

const realSpawn: SandboxProbeOptions['spawn'] = (file, args, options) => spawn(file, args, options);

/** A child that writes `stderr` and closes with `code`, as bwrap would on a machine that refuses it. */
function fakeChild(code: number, stderr: string): ProbeChild {
  const child = new EventEmitter() as EventEmitter & ProbeChild;
  const err = new EventEmitter() as EventEmitter & { setEncoding(): void };
  err.setEncoding = () => {};
  Object.assign(child, { stderr: err, kill: () => {} });
  setImmediate(() => {
    err.emit('data', stderr);
    child.emit('close', code);
  });
  return child;
}

test('on this machine bubblewrap is found and starts a sandbox', async () => {
  const probe = await probeSandbox({ platform: 'linux', spawn: realSpawn, exists: existsSync, path: process.env.PATH ?? '' });
  expect(probe).toMatchObject({ ok: true, kind: 'bubblewrap' });
});

test('without bwrap the answer says to install bubblewrap, and nothing is run', async () => {
  let spawned = false;
  const probe = await probeSandbox({
    platform: 'linux',
    spawn: () => ((spawned = true), fakeChild(0, '')),
    exists: () => false,
    path: '/usr/local/bin:/usr/bin',
  });
  expect(probe).toEqual({
    ok: false,
    kind: 'bubblewrap',
    reason: 'bubblewrap (bwrap) is not installed.',
    fix: expect.stringMatching(/^Install bubblewrap: sudo apt install bubblewrap/),
  });
  expect(spawned).toBe(false);
});

test('bwrap is looked for on PATH first, then in /usr/bin', () => {
  expect(findBwrap({ exists: (p) => p === '/opt/bin/bwrap' || p === '/usr/bin/bwrap', path: 'relative:/opt/bin/' })).toBe('/opt/bin/bwrap');
  expect(findBwrap({ exists: (p) => p === '/usr/bin/bwrap', path: '' })).toBe('/usr/bin/bwrap');
});

test("a refused trial run gives bwrap's own complaint as the reason and a fix that matches it", async () => {
  const stderr =
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.";
  const probe = await probeSandbox({ platform: 'linux', spawn: () => fakeChild(1, stderr), exists: () => true });
  expect(probe).toMatchObject({ ok: false, kind: 'bubblewrap', reason: expect.stringContaining('No permissions to creating new namespace') });
  expect(!probe.ok && probe.fix).toMatch(/User namespaces are off: sudo sysctl kernel.unprivileged_userns_clone=1/);
});

test('each known complaint of bwrap has its own fix', () => {
  expect(bwrapFix('bwrap: setting up uid map: Permission denied')).toMatch(/AppArmor/);
  expect(bwrapFix('bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted')).toMatch(/AppArmor/);
  expect(bwrapFix('bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_user_namespaces exceeded (ENOSPC)')).toMatch(
    /max_user_namespaces=/,
  );
  expect(
    bwrapFix(
      'bwrap: Creating new namespace failed, likely because the kernel does not support user namespaces.  bwrap must be installed setuid on such systems.',
    ),
  ).toMatch(/setuid/);
  expect(bwrapFix("bwrap: Can't mount proc on /newroot/proc: Operation not permitted")).toMatch(/container/);
  expect(bwrapFix('something new')).toMatch(/bwrap --ro-bind \/ \/ --unshare-all true/);
});

test('a trial run that hangs is given up after the timeout', async () => {
  const hanging = Object.assign(new EventEmitter(), { stderr: null, kill: () => {} }) as unknown as ProbeChild;
  const probe = await probeSandbox({ platform: 'linux', spawn: () => hanging, exists: () => true, timeoutMs: 20 });
  expect(probe).toMatchObject({ ok: false, reason: expect.stringContaining('did not finish within 20 ms') });
});

test('macOS uses sandbox-exec; Windows has no sandbox, and says so', async () => {
  const calls: string[][] = [];
  const mac = await probeSandbox({
    platform: 'darwin',
    spawn: (file, args) => (calls.push([file, ...args]), fakeChild(0, '')),
    exists: (p) => p === '/usr/bin/sandbox-exec',
  });
  expect(mac).toEqual({ ok: true, kind: 'seatbelt', command: '/usr/bin/sandbox-exec' });
  expect(calls).toEqual([['/usr/bin/sandbox-exec', '-p', '(version 1)(allow default)', '/usr/bin/true']]);
  expect(await probeSandbox({ platform: 'darwin', spawn: () => fakeChild(0, ''), exists: () => false })).toMatchObject({ ok: false, kind: 'seatbelt' });
  expect(await probeSandbox({ platform: 'win32', spawn: () => fakeChild(0, ''), exists: () => true })).toMatchObject({
    ok: false,
    kind: 'none',
    reason: 'There is no sandbox for shell commands on win32.',
  });
});
