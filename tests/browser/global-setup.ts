// Builds the app once per test run, only when out/ is older than its sources: the same full build that
// `npm run check` ends with, which then finds out/ fresh and skips its own (scripts/build-if-stale.mjs).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export default function setup(): void {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('electron-vite build failed; see the errors above.');
}
