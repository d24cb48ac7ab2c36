import { lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, join, matchesGlob, relative, sep } from 'node:path';

interface Rule {
  negate: boolean;
  /** A pattern with a slash before its end matches from its file's folder; one without, a name at any depth. */
  anchored: boolean;
  glob: string;
}

function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    // A folder-only pattern (`dist/`) is taken for files too: the walk never asks which a path is.
    line = line.replace(/\/+$/, '');
    if (line === '') continue;
    const anchored = line.includes('/');
    rules.push({ negate, anchored, glob: line.replace(/^\//, '').replace(/^\\([#!])/, '$1') });
  }
  return rules;
}

/**
 * The workspace's `.gitignore` files (the root's and each folder's), read as the walk reaches their folders:
 * `ignores(path)` says whether git would leave a file or folder out. Covers names, globs with `*` and `**`,
 * anchored patterns and `!` re-includes; a `.gitignore` that is not a regular file is not read.
 */
export class GitignoreRules {
  readonly #root: string;
  readonly #byFolder = new Map<string, Rule[]>();

  constructor(root: string) {
    this.#root = root;
  }

  #rulesOf(folder: string): Rule[] {
    let rules = this.#byFolder.get(folder);
    if (!rules) {
      const file = join(folder, '.gitignore');
      try {
        rules = lstatSync(file).isFile() ? parseRules(readFileSync(file, 'utf8')) : [];
      } catch {
        rules = [];
      }
      this.#byFolder.set(folder, rules);
    }
    return rules;
  }

  /** Forgets what was read of a folder's `.gitignore`, after it changed. */
  forget(folder: string): void {
    this.#byFolder.delete(folder);
  }

  /** True when `path` (absolute, inside the root) or a folder above it is ignored. */
  ignores(path: string): boolean {
    const rel = relative(this.#root, path);
    if (rel === '' || rel.startsWith('..')) return false;
    const parts = rel.split(sep);
    for (let i = 1; i <= parts.length; i++) {
      if (this.#ignoredItself(join(this.#root, ...parts.slice(0, i)))) return true;
    }
    return false;
  }

  #ignoredItself(path: string): boolean {
    for (let folder = dirname(path); ; folder = dirname(folder)) {
      const rel = relative(folder, path).split(sep).join('/');
      const rules = this.#rulesOf(folder);
      for (let i = rules.length - 1; i >= 0; i--) {
        const rule = rules[i]!;
        if (rule.anchored ? matchesGlob(rel, rule.glob) : matchesGlob(basename(path), rule.glob)) return !rule.negate;
      }
      if (folder === this.#root || folder === dirname(folder)) break;
    }
    return false;
  }
}
