// `npm run serve`: build the renderer when it is missing or older than its sources, then run the headless shell
// in this same process (no launcher stays behind it: the shell's pid is the one a stop signal is sent to).
import { spawnSync } from 'node:child_process';
import { enableCompileCache } from 'node:module';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/**
 * Runs the headless shell in this process with `args` as its command line. A `--renderer-dir` of the
 * caller's own means there is nothing of ours to build.
 */
export async function runHeadless(args) {
  if (!args.some((a) => a === '--renderer-dir' || a.startsWith('--renderer-dir='))) ensureBuilt();
  const main = join(root, 'src', 'main', 'headless', 'headless-main.ts');
  // Type-stripped sources and their compiled code are kept between runs (the plugin processes use the same
  // folder): a warm start neither strips the TypeScript again nor loads the stripper, about 25 MB less.
  enableCompileCache();
  process.argv = [process.execPath, main, ...args];
  await import(pathToFileURL(main).href);
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) await runHeadless(process.argv.slice(2));
