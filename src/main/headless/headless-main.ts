// `npm run serve`: the headless shell as a program. Prints the URL to open, and stops cleanly on a signal.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../data-dir.ts';
import { startHeadless } from './headless-shell.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.AMBER_PORT ?? '0' },
    'data-dir': { type: 'string' },
    'renderer-dir': { type: 'string' },
  },
});

const rendererDir = resolve(values['renderer-dir'] ?? resolve(import.meta.dirname, '../../../out/renderer'));
const shell = await startHeadless({ dataDir: resolve(values['data-dir'] ?? defaultDataDir()), rendererDir, port: Number(values.port) });
console.log(`Amber (headless) is running at ${shell.url}`);
console.log(`Data: ${shell.app.dataDir}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await shell.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
