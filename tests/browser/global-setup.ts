// Builds the renderer once per test run, only when out/renderer is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

export default function setup(): void {
  const built = join(root, 'out', 'renderer', 'index.html');
  const sources = Math.max(newest(join(root, 'src', 'renderer')), newest(join(root, 'src', 'shared')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('electron-vite build failed; see the errors above.');
}
