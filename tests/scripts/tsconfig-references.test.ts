import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (name: string) =>
  JSON.parse(readFileSync(join(root, name), 'utf8')) as {
    files?: string[];
    references?: { path: string }[];
    include?: string[];
    compilerOptions?: { lib?: string[]; types?: string[] };
  };

test('the root tsconfig compiles nothing itself and refers to every process config, so editors type each file by its own', () => {
  const rootConfig = read('tsconfig.json');
  expect(rootConfig.files).toEqual([]);
  const configs = readdirSync(root).filter((n) => /^tsconfig\.\w+\.json$/.test(n) && n !== 'tsconfig.base.json');
  expect(rootConfig.references?.map((r) => r.path.replace('./', '')).sort()).toEqual(configs.sort());
  // The first reference that includes a file owns it in the editor: shared files are typed with neither DOM nor Node.
  expect(rootConfig.references?.[0]?.path).toBe('./tsconfig.shared.json');
});

test('renderer files are typed with the DOM and without Node; main and shared without the DOM', () => {
  const web = read('tsconfig.web.json');
  expect(web.include).toContain('src/renderer/**/*.tsx');
  expect(web.compilerOptions?.lib).toContain('DOM');
  expect(web.compilerOptions?.types ?? []).not.toContain('node');
  for (const name of ['tsconfig.node.json', 'tsconfig.shared.json', 'tsconfig.workers.json']) {
    expect(read(name).compilerOptions?.lib ?? []).not.toContain('DOM');
    expect(read(name).include?.some((p) => p.startsWith('src/renderer'))).toBe(false);
  }
});
