import { dirname, isAbsolute, resolve } from 'node:path';
import { PROTECTED_PATHS, protectedReason } from '../../shared/tools/index.ts';
import { isInside } from '../is-inside.ts';

const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/stdin', '/dev/zero', '/dev/random', '/dev/urandom']);
/** More folders than this that a line may be in, after its `cd`s, is judged as not knowing where it is. */
const MAX_FOLDERS = 16;

/** What a path the line names turned out to be; the classifier turns it into notes. */
export type Finding =
  | { kind: 'device'; path: string }
  | { kind: 'network'; path: string }
  | { kind: 'unknown'; reason: string }
  | { kind: 'outside'; written: string }
  | { kind: 'denied'; written: string }
  /** `paths`: absolute, as written and where it lands (for a pattern: the folder it starts from). */
  | { kind: 'protected'; written: string; why: string; paths: string[] };

export interface ShellLocationsOptions {
  root: string;
  home: string;
  deniedRoots: readonly string[];
  realPath: (path: string) => string;
}

/**
 * Where the paths of one command line lie, judged as the file tools judge theirs: every folder the line
 * may be in after its `cd`s (a `cd` that may not run still leaves the line possibly where it was, so all are
 * kept), `~` as the home folder, the links the line itself makes and those on disk followed (realPath).
 * A path is outside when it lies outside the workspace as written or where it lands; denied when it lies in
 * a denied root either way; protected (for writes) when it or where it lands is a protected path.
 */
export class ShellLocations {
  readonly #root: string;
  readonly #realRoot: string;
  readonly #home: string;
  readonly #denied: { root: string; real: string }[];
  readonly #realPath: (path: string) => string;
  #folders: string[];
  /** The folders the last `cd` went to: where the line is once that `cd` is known to have worked. */
  #lastCd: string[] | null = null;
  /** Links made earlier in the line: absolute link path → absolute path it leads to. */
  readonly #links = new Map<string, string>();

  constructor(options: ShellLocationsOptions) {
    this.#root = resolve(options.root);
    this.#realPath = options.realPath;
    this.#realRoot = options.realPath(this.#root);
    this.#home = options.home;
    this.#denied = options.deniedRoots.map((r) => ({ root: resolve(r), real: options.realPath(resolve(r)) }));
    this.#folders = [this.#root];
  }

  /** Judges one path the line names (`value` as the shell passes it: tilde not yet expanded). */
  check(value: string, mode: 'read' | 'write', glob: boolean): Finding[] {
    const v = value;
    if (v === '') return [];
    if (/^\/dev\/(tcp|udp)\//.test(v)) return [{ kind: 'network', path: v }];
    if (v.startsWith('~') && v !== '~' && !v.startsWith('~/'))
      return [
        { kind: 'unknown', reason: `It names ${v}, a home folder or place the shell picks at run time (~user, ~+, ~-), which cannot be judged.` },
        { kind: 'outside', written: v },
      ];
    if (glob && /(^|\/)\.\.(\/|$)/.test(v))
      return [{ kind: 'unknown', reason: `It names ${v}, a pattern that climbs out of its folder (..), which cannot be judged.` }];
    const fulls = v === '~' || v.startsWith('~/') ? [this.#home + v.slice(1)] : isAbsolute(v) ? [resolve(v)] : this.#folders.map((f) => resolve(f, v));
    return fulls.flatMap((full) => this.#checkFull(v, full, mode, glob));
  }

  /** A `cd` to `value`: later paths are resolved from there as well. Returns what the folder itself is. */
  cd(value: string): Finding[] {
    const findings = this.check(value, 'read', false);
    const fulls =
      value === '~' || value.startsWith('~/')
        ? [this.#home + value.slice(1)]
        : isAbsolute(value)
          ? [resolve(value)]
          : this.#folders.map((f) => resolve(f, value));
    const next = new Set([...this.#folders, ...fulls]);
    if (next.size > MAX_FOLDERS) findings.push({ kind: 'unknown', reason: 'It moves between too many folders to be judged.' });
    this.#folders = [...next].slice(0, MAX_FOLDERS);
    this.#lastCd = fulls;
    return findings;
  }

  /** `cd x && …`: what follows runs only if the last `cd` worked, so the line is now only where it went. */
  cdSucceeded(): void {
    if (this.#lastCd) this.#folders = [...this.#lastCd];
  }

  /** Whether the folder the line moves to stays inside the workspace, as written and where it lands. */
  inside(value: string): boolean {
    const fulls =
      value === '~' || value.startsWith('~/')
        ? [this.#home + value.slice(1)]
        : isAbsolute(value)
          ? [resolve(value)]
          : this.#folders.map((f) => resolve(f, value));
    return fulls.every((full) => this.#insideRoot(full, this.#land(full)));
  }

  /** Records a link the line makes (see the classifier's `link`). */
  link(target: string, name: string, kind: 'symbolic' | 'hard' | 'moved'): void {
    const expand = (p: string, from: string) => (p === '~' || p.startsWith('~/') ? this.#home + p.slice(1) : resolve(from, p));
    for (const folder of this.#folders) {
      const at = expand(name, folder);
      const source = expand(target, kind === 'symbolic' ? dirname(at) : folder);
      if (kind === 'moved') {
        const lands = this.#land(source);
        if (lands !== source) this.#links.set(at, lands);
      } else this.#links.set(at, source);
    }
  }

  #checkFull(written: string, full: string, mode: 'read' | 'write', glob: boolean): Finding[] {
    const out: Finding[] = [];
    const lands = this.#land(full);
    if (
      this.#denied.some((d) =>
        [full, lands].some((p) => (glob ? globReaches(p, d.root) || globReaches(p, d.real) : isInside(d.root, p) || isInside(d.real, p))),
      )
    ) {
      out.push({ kind: 'denied', written });
    }
    if (full.startsWith('/dev/')) {
      if (HARMLESS_DEVICES.has(full) || full.startsWith('/dev/fd/')) return out;
      if (mode === 'write') out.push({ kind: 'device', path: full });
    }
    if (!this.#insideRoot(full, lands))
      out.push({ kind: 'outside', written: lands === full || lands === resolve(full) ? written : `${written} (which leads to ${lands})` });
    if (mode === 'write') {
      const why = protectedReason(full) ?? protectedReason(lands) ?? (glob ? globProtected(full) : null);
      if (why !== null) out.push({ kind: 'protected', written, why, paths: [...new Set(glob ? [globBase(full)] : [full, lands])] });
    }
    return out;
  }

  #insideRoot(full: string, lands: string): boolean {
    return isInside(this.#root, full) && (isInside(this.#root, lands) || isInside(this.#realRoot, lands));
  }

  /** Where a path leads: through the links the line made, then the links on disk. */
  #land(full: string): string {
    let p = full;
    for (let hops = 0; hops < 16; hops++) {
      let moved = false;
      for (const [at, to] of this.#links) {
        if (p === at || p.startsWith(`${at}/`)) {
          p = to + p.slice(at.length);
          moved = true;
          break;
        }
      }
      if (!moved) break;
    }
    return this.#realPath(p);
  }
}

/** A glob's parts as regular expressions (`*` and `?` within a name, `[…]` classes). */
function globPart(part: string): RegExp {
  let re = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = part.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        re += `[${part
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/** Whether a wildcard part matches a name as bash does by default: a leading dot must be written. */
function globMatches(part: string, name: string): boolean {
  if (name.startsWith('.') && !part.startsWith('.')) return false;
  return globPart(part).test(name);
}

/** Whether a glob pattern (absolute) may match `root` or something inside it. */
function globReaches(pattern: string, root: string): boolean {
  const parts = pattern.split('/').filter((p) => p !== '');
  const rootParts = root.split('/').filter((p) => p !== '');
  if (parts.length < rootParts.length) return false;
  return rootParts.every((r, i) => globMatches(parts[i]!, r));
}

/** Why a glob pattern may match a protected path, or null: each wildcard part is tried on the protected names. */
function globProtected(pattern: string): string | null {
  const parts = pattern.split('/').filter((p) => p !== '');
  for (const [i, part] of parts.entries()) {
    if (!/[*?[]/.test(part)) continue;
    for (const entry of PROTECTED_PATHS) {
      const names =
        'file' in entry
          ? [entry.file]
          : 'prefix' in entry
            ? [`${entry.prefix}x${entry.suffix ?? ''}`]
            : 'suffix' in entry
              ? [`x${entry.suffix}`]
              : [entry.folder.split('/')[0]!];
      const last = i === parts.length - 1;
      if (names.some((n) => globMatches(part, n)) && ('folder' in entry || last)) return entry.why;
    }
  }
  return null;
}

/** The folder a pattern starts from: its parts before the first one with a wildcard. */
function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const first = parts.findIndex((p) => /[*?[]/.test(p));
  return first < 0 ? pattern : parts.slice(0, first).join('/') || '/';
}
