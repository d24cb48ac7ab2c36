import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';

// A plugin process starts small: its host code and the SDK never load zod (about 17 MB of resident memory
// in each plugin process); main checks everything a plugin sends. This runs the host's modules in a fresh
// Node and lists every module they load.
test('the plugin host and the SDK load no zod', () => {
  const modules = ['./plugin-host.ts', './parent-pipe.ts', '../../shared/plugin-wire/index.ts', '../sdk/index.ts'].map(
    (m) => pathToFileURL(join(import.meta.dirname, m)).href,
  );
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
    for (const m of ${JSON.stringify(modules)}) await import(m);
    console.log(JSON.stringify(loaded));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(run.status, run.stderr).toBe(0);
  const loaded = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as string[];
  expect(loaded.some((url) => url.endsWith('/plugin-host.ts'))).toBe(true);
  expect(loaded.filter((url) => /\/node_modules\/zod\//.test(url))).toEqual([]);
});
