// `npm run bench -- <name> [args…]`: runs bench/<name>-bench.ts (sessions, plugins, stream, ui, mcp, footprint, subagents, compaction). Each prints
// its figures as one JSON object on its last line.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const names = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('-bench.ts'))
  .map((f) => f.replace(/-bench\.ts$/, ''));
const [name, ...args] = process.argv.slice(2);
const file = name ? join(root, 'bench', `${name}-bench.ts`) : null;
if (!file || !existsSync(file)) {
  console.error(`usage: npm run bench -- <${names.join('|')}> [args…]`);
  process.exit(1);
}
const r = spawnSync(process.execPath, [file, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
