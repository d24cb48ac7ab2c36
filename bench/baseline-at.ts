import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The sources of git revision `rev` (its `src` folder), written out under `dir`, with this checkout's
 * node_modules beside them so they load the same packages. Returns the folder: a bench imports or runs the
 * baseline's modules from there (AMBER_BENCH_BASELINE=REV).
 */
export function baselineAt(rev: string, dir: string): string {
  const root = join(dir, 'baseline');
  mkdirSync(root);
  const repo = resolve(import.meta.dirname, '..');
  const archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', rev, 'src'], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  return root;
}
