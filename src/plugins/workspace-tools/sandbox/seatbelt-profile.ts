import { join } from 'node:path';
import { PROTECTED_PATHS, type ProtectedPath, SECRET_PATHS, type SecretPath } from '../../../shared/tools/index.ts';
import type { SandboxProfile } from './sandbox-profile.ts';

export interface SeatbeltOptions {
  /** This call's own temporary folder (real path; TMPDIR points there): writable in every mode. */
  tmp: string;
  /** A path's real path when it differs (macOS reaches /tmp through /private/tmp…); identity by default. */
  realpath?: (path: string) => string;
  secrets?: readonly SecretPath[];
  protectedPaths?: readonly ProtectedPath[];
}

/** Devices a command writes to in every mode without changing anything. */
const DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper', '/dev/random', '/dev/urandom'];

/**
 * The Seatbelt profile (SBPL, for `sandbox-exec -p`) of one call, with the same rules as bubblewrap's:
 * - every mode: reading and writing the secrets and the denied folders is refused; writing anywhere is
 *   refused but in the call's temporary folder and harmless devices; processes may fork and exec;
 * - read: nothing else is writable; no network;
 * - write/yolo: the workspace is writable, except its protected paths (matched by name anywhere below the
 *   root, ignoring case as macOS's disks do, whether they exist yet or not) save those in `writable`;
 *   network only when `network`.
 * The profile starts from `(allow default)` and adds only deny rules, each one complete in itself (no allow
 * rule overlaps a deny), so the outcome never depends on which of two matching rules Seatbelt prefers.
 * Throws when a path holds a character a profile cannot carry (a quote, a backslash, a line break).
 */
export function seatbeltProfile(profile: SandboxProfile, options: SeatbeltOptions): string {
  const realpath = options.realpath ?? ((p: string) => p);
  const writes = profile.mode !== 'read';
  const writable: string[] = [
    `(subpath ${str(options.tmp)})`,
    ...DEVICES.map((d) => `(literal ${str(d)})`),
    '(regex #"^/dev/fd/")',
    '(regex #"^/dev/ttys[0-9]+$")',
  ];
  if (writes) {
    const root = realpath(profile.root);
    const guarded = (options.protectedPaths ?? PROTECTED_PATHS).map((p) => protectedFilter(root, p));
    writable.push(`(require-all (subpath ${str(root)}) (require-not (require-any ${guarded.join(' ')})))`);
    for (const w of profile.writable) if (w === root || w.startsWith(`${root}/`)) writable.push(`(subpath ${str(w)})`);
  }
  const hidden = new Set<string>();
  for (const s of options.secrets ?? SECRET_PATHS) {
    const path = s.path.startsWith('~/') ? join(profile.home, s.path.slice(2)) : s.path;
    hidden.add(path).add(realpath(path));
  }
  for (const d of profile.denied) hidden.add(d).add(realpath(d));
  const lines = [
    '(version 1)',
    '(allow default)',
    `(deny file-write* (require-not (require-any ${writable.join(' ')})))`,
    ...[...hidden].map((p) => `(deny file-read* file-write* (regex #"^${caseless(p)}(/|$)"))`),
  ];
  if (!(writes && profile.network)) lines.push('(deny network*)');
  else lines.push(...[...hidden].map((p) => `(deny network-outbound (remote unix-socket (path-literal ${str(p)})))`));
  return `${lines.join('\n')}\n`;
}

/**
 * A protected path below `root` as an SBPL filter: its folder run or file name anywhere below, in any case.
 * A prefix with a suffix is two conditions, as the two may overlap (`tsconfig.` and `.json` in tsconfig.json).
 */
function protectedFilter(root: string, p: ProtectedPath): string {
  const below = `^${caseless(root)}/(.*/)?`;
  if ('prefix' in p) {
    const prefix = `(regex #"${below}${caseless(p.prefix)}[^/]*$")`;
    return p.suffix === undefined ? prefix : `(require-all ${prefix} (regex #"${caseless(p.suffix)}$"))`;
  }
  if ('folder' in p) return `(regex #"${below}${caseless(p.folder)}(/|$)")`;
  if ('file' in p) return `(regex #"${below}${caseless(p.file)}$")`;
  return `(regex #"${below}[^/]*${caseless(p.suffix)}$")`;
}

/** A path as an SBPL string literal. */
function str(path: string): string {
  check(path);
  return `"${path}"`;
}

/** A path as regex text matching it in any letter case. */
function caseless(path: string): string {
  check(path);
  return [...path]
    .map((c) => {
      const lower = c.toLowerCase();
      const upper = c.toUpperCase();
      if (lower !== upper && lower.length === 1 && upper.length === 1) return `[${lower}${upper}]`;
      return /[.*+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
    })
    .join('');
}

function check(path: string): void {
  if (/["\\\n\r\0]/.test(path)) throw new Error(`The path ${JSON.stringify(path)} holds a character the macOS sandbox profile cannot carry.`);
}
