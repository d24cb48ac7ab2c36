// Runs the full `electron-vite build` unless out/ is already fresh: its stamp (when the last full build
// started) is newer than every build input. The browser tests' setup and `npm run check` both call this,
// so one test run builds once. `--force` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'out');
const stampFile = join(out, '.build-stamp');
/** What a full build writes; any one missing means out/ is not a build. */
const outputs = ['renderer/index.html', 'main/index.js', 'main/plugin-host.js', 'preload/index.cjs'].map((p) => join(out, p));
/** What a build reads besides src/ (unit tests under src/ are not build inputs). */
const inputFiles = ['electron.vite.config.ts', 'package.json', 'package-lock.json'].map((p) => join(root, p));

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) t = Math.max(t, newest(p));
    else if (!entry.name.endsWith('.test.ts')) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

function stampedAt() {
  try {
    const at = JSON.parse(readFileSync(stampFile, 'utf8')).startedAt;
    return typeof at === 'number' ? at : null;
  } catch {
    return null;
  }
}

export function isFresh() {
  const at = stampedAt();
  if (at === null || !outputs.every((p) => existsSync(p))) return false;
  const inputs = Math.max(newest(join(root, 'src')), ...inputFiles.filter((p) => existsSync(p)).map((p) => statSync(p).mtimeMs));
  return inputs <= at;
}

export function build() {
  // The stamp holds the start: a source saved during the build is newer than it, so the next call builds.
  const startedAt = Date.now();
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) return false;
  writeFileSync(stampFile, JSON.stringify({ startedAt }));
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
