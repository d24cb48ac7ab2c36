// Runs the full `electron-vite build` unless out/ is already fresh: its stamp (when the last full build
// started) is newer than every build input. The browser tests' setup and `npm run check` both call this,
// so one test run builds once. `--force` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const STAMP = join('out', '.build-stamp');
/** What a full build writes; any one missing means out/ is not a build. */
const OUTPUTS = ['renderer/index.html', 'main/index.js', 'main/plugin-host.js', 'preload/index.cjs'].map((p) => join('out', p));
/** What a build reads besides src/ (unit tests under src/ are not build inputs). */
const INPUT_FILES = ['electron.vite.config.ts', 'package.json', 'package-lock.json'];

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) t = Math.max(t, newest(p));
    else if (!entry.name.endsWith('.test.ts')) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

function stampedAt(root) {
  try {
    const at = JSON.parse(readFileSync(join(root, STAMP), 'utf8')).startedAt;
    return typeof at === 'number' ? at : null;
  } catch {
    return null;
  }
}

/** True when out/ under `root` holds a full build started after its newest input was saved. */
export function isFresh(root = ROOT) {
  const at = stampedAt(root);
  if (at === null || !OUTPUTS.every((p) => existsSync(join(root, p)))) return false;
  const files = INPUT_FILES.map((p) => join(root, p)).filter((p) => existsSync(p));
  const inputs = Math.max(newest(join(root, 'src')), ...files.map((p) => statSync(p).mtimeMs));
  return inputs <= at;
}

function electronViteBuild(root) {
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return r.status === 0;
}

/** Builds (with `run`, default electron-vite) and stamps out/ when it succeeds; false when it fails. */
export function build(root = ROOT, run = electronViteBuild, now = Date.now) {
  // The stamp holds the start: a source saved during the build is newer than it, so the next call builds.
  const startedAt = now();
  if (!run(root)) return false;
  writeFileSync(join(root, STAMP), JSON.stringify({ startedAt }));
  return true;
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  if (!process.argv.includes('--force') && isFresh()) {
    console.log('out/ is newer than its sources: the build is skipped.');
  } else if (!build()) {
    console.error('electron-vite build failed; see the errors above.');
    process.exit(1);
  }
}
