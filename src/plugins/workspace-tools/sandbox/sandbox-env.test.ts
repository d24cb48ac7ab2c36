import { expect, test } from 'vitest';
import { sandboxEnv } from './sandbox-env.ts';

const source = {
  PATH: '/usr/bin',
  HOME: '/home/real',
  USER: 'ann',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'C',
  TZ: 'UTC',
  TERM: 'xterm',
  AMBER_PLUGIN_RUN: 'run-id',
  OPENAI_API_KEY: 'sk-x',
  GITHUB_TOKEN: 'ghp_x',
  HTTPS_PROXY: 'http://u:p@proxy:3128',
  NODE_OPTIONS: '--require evil',
  LD_PRELOAD: '/evil.so',
  SYSTEMROOT: 'C:\\Windows',
};

test('only the allow-listed variables pass, HOME and TMPDIR set by the sandbox', () => {
  expect({ ...sandboxEnv(source, { home: '/home/sandboxed', tmp: '/tmp', platform: 'linux' }) }).toEqual({
    PATH: '/usr/bin',
    HOME: '/home/sandboxed',
    USER: 'ann',
    LANG: 'en_GB.UTF-8',
    LC_ALL: 'C',
    TZ: 'UTC',
    TERM: 'xterm',
    AMBER_PLUGIN_RUN: 'run-id',
    TMPDIR: '/tmp',
  });
});

test('Windows keeps the variables its programs need, and still no key', () => {
  const env = sandboxEnv(source, { home: 'C:\\Users\\ann', tmp: 'C:\\Temp', platform: 'win32' });
  expect(env['SYSTEMROOT']).toBe('C:\\Windows');
  expect(Object.keys(env)).not.toContain('OPENAI_API_KEY');
});

test('the result has no prototype for anything to slip in through', () => {
  expect(Object.getPrototypeOf(sandboxEnv({}, { home: '/h', tmp: '/tmp' }))).toBeNull();
});
