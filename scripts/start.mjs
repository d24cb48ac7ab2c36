// `npm start`: the desktop window where Electron can run; otherwise one line says why and the headless shell starts
// in this same process.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ensureBuilt, runHeadless } from './serve.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function electronUnavailable() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY is not set)';
  let pkgDir;
  try {
    pkgDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return 'the electron package is not installed';
  }
  const pathTxt = join(pkgDir, 'path.txt');
  if (process.env.ELECTRON_EXEC_PATH && existsSync(process.env.ELECTRON_EXEC_PATH)) return null;
  if (!existsSync(pathTxt) || !existsSync(join(pkgDir, 'dist', readFileSync(pathTxt, 'utf8').trim()))) {
    return 'the Electron binary has not been downloaded (it is fetched on first run and this machine cannot reach it)';
  }
  return null;
}

const why = electronUnavailable();
if (why) {
  console.log(`amber: starting headless because ${why}; open the URL below in a browser.`);
  await runHeadless(process.argv.slice(2));
} else {
  ensureBuilt();
  const r = spawnSync('npx', ['electron-vite', 'preview', '--skipBuild'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 0);
}
