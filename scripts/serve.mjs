// `npm run serve`: build the renderer when it is missing or older than its sources, then run the headless shell.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

export function ensureBuilt() {
  const built = join(root, 'out', 'renderer', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'src', 'renderer')), newestMtime(join(root, 'src', 'shared')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.log('Building the renderer…');
  const r = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    console.error('amber: the build failed; see the errors above.');
    process.exit(1);
  }
}

export function runHeadless(args) {
  ensureBuilt();
  const child = spawn(process.execPath, [join(root, 'src', 'main', 'headless', 'headless-main.ts'), ...args], { stdio: 'inherit' });
  // A stop signal sent to this launcher reaches the shell too, so it closes its plugins and database.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (import.meta.url === `file://${process.argv[1]}`) runHeadless(process.argv.slice(2));
