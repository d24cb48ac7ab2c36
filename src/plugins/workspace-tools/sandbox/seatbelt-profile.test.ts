import { describe, expect, test } from 'vitest';
import type { ProtectedPath } from '../../../shared/tools/index.ts';
import type { SandboxProfile } from './sandbox-profile.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';

// Seatbelt cannot run here: its profile is checked as text, rule by rule. Each rule is a whole line.

const base: SandboxProfile = {
  mode: 'read',
  network: false,
  root: '/Users/ann/proj',
  home: '/Users/ann',
  denied: ['/Users/ann/Library/Application Support/Amber'],
  writable: [],
};
const tmp = '/private/var/folders/xy/T/amber-sh-1';
const secrets = [
  { path: '~/.ssh', why: 'keys' },
  { path: '/var/run/docker.sock', why: 'socket' },
];
const protectedPaths: ProtectedPath[] = [
  { folder: '.git', why: 'hooks' },
  { file: 'package.json', why: 'scripts' },
  { suffix: '.code-workspace', why: 'editor' },
  { prefix: 'tsconfig.', suffix: '.json', why: 'plugins' },
];

const profile = (p: Partial<SandboxProfile>, realpath?: (path: string) => string) =>
  seatbeltProfile({ ...base, ...p }, { tmp, secrets, protectedPaths, ...(realpath ? { realpath } : {}) });
const lines = (text: string) => text.trimEnd().split('\n');
const writeRule = (text: string) => lines(text).find((l) => l.startsWith('(deny file-write* (require-not'))!;

describe('every mode', () => {
  test('starts from allow-default and only denies, so no two rules can disagree', () => {
    for (const mode of ['read', 'write', 'yolo'] as const) {
      const text = profile({ mode, network: true });
      expect(lines(text).slice(0, 2)).toEqual(['(version 1)', '(allow default)']);
      expect(
        lines(text)
          .slice(2)
          .every((l) => l.startsWith('(deny ')),
      ).toBe(true);
    }
  });

  test('secrets and the data folder can be neither read nor written, in any letter case, home paths expanded', () => {
    const text = profile({ mode: 'yolo', network: true });
    expect(text).toContain('(deny file-read* file-write* (regex #"^/[uU][sS][eE][rR][sS]/[aA][nN][nN]/\\.[sS][sS][hH](/|$)"))\n');
    expect(text).toContain('(deny file-read* file-write* (regex #"^/[vV][aA][rR]/[rR][uU][nN]/[dD][oO][cC][kK][eE][rR]\\.[sS][oO][cC][kK](/|$)"))\n');
    expect(text).toContain('[aA][pP][pP][lL][iI][cC][aA][tT][iI][oO][nN] [sS][uU][pP][pP][oO][rR][tT]/[aA][mM][bB][eE][rR](/|$)"))\n');
  });

  test('a secret reached through a link is denied by its real path as well', () => {
    const text = profile({}, (p) => (p === '/var/run/docker.sock' ? '/private/var/run/docker.sock' : p));
    expect(text).toContain('(regex #"^/[pP][rR][iI][vV][aA][tT][eE]/[vV][aA][rR]/[rR][uU][nN]/[dD][oO][cC][kK][eE][rR]\\.[sS][oO][cC][kK](/|$)")');
    expect(text).toContain('(regex #"^/[vV][aA][rR]/[rR][uU][nN]/[dD][oO][cC][kK][eE][rR]\\.[sS][oO][cC][kK](/|$)")');
  });

  test("writes are refused everywhere but the call's own temporary folder and harmless devices", () => {
    const rule = writeRule(profile({}));
    expect(rule).toContain(`(subpath "${tmp}")`);
    expect(rule).toContain('(literal "/dev/null")');
    expect(rule).not.toContain('"/private/tmp"');
  });

  test('a path a profile cannot carry is refused rather than half-quoted', () => {
    expect(() => profile({ root: '/Users/ann/a"b', mode: 'write' })).toThrow(/cannot carry/);
    expect(() => profile({ denied: ['/x\\y'] })).toThrow(/cannot carry/);
  });
});

describe('read', () => {
  test('the workspace is not writable and there is no network, whatever network says', () => {
    const text = profile({ network: true });
    expect(writeRule(text)).not.toContain('/Users/ann/proj');
    expect(lines(text)).toContain('(deny network*)');
  });
});

describe('write and yolo', () => {
  test('the workspace is writable except its protected paths, matched below the root in any case', () => {
    const rule = writeRule(profile({ mode: 'write' }));
    const root = '/[uU][sS][eE][rR][sS]/[aA][nN][nN]/[pP][rR][oO][jJ]/(.*/)?';
    expect(rule).toContain(
      '(require-all (subpath "/Users/ann/proj") (require-not (require-any ' +
        `(regex #"^${root}\\.[gG][iI][tT](/|$)") ` +
        `(regex #"^${root}[pP][aA][cC][kK][aA][gG][eE]\\.[jJ][sS][oO][nN]$") ` +
        `(regex #"^${root}[^/]*\\.[cC][oO][dD][eE]-[wW][oO][rR][kK][sS][pP][aA][cC][eE]$") ` +
        `(require-all (regex #"^${root}[tT][sS][cC][oO][nN][fF][iI][gG]\\.[^/]*$") (regex #"\\.[jJ][sS][oO][nN]$")))))`,
    );
  });

  test('protected paths the user allowed for the call are writable again; paths outside the workspace are never added', () => {
    const rule = writeRule(profile({ mode: 'write', writable: ['/Users/ann/proj/package.json', '/Users/ann/.bashrc', '/Users/ann/project2/x'] }));
    expect(rule).toContain('(subpath "/Users/ann/proj/package.json")');
    expect(rule).not.toContain('.bashrc');
    expect(rule).not.toContain('project2');
  });

  test('the network is denied unless the call allows it; then only the secret sockets are', () => {
    expect(lines(profile({ mode: 'write', network: false }))).toContain('(deny network*)');
    const open = lines(profile({ mode: 'yolo', network: true }));
    expect(open).not.toContain('(deny network*)');
    expect(open).toContain('(deny network-outbound (remote unix-socket (path-literal "/var/run/docker.sock")))');
  });
});
