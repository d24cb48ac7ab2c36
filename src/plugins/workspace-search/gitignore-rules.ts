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

/** The rules of a file that is regular and reached through no link, or none. */
function readRules(folder: string, names: readonly string[]): Rule[] {
  try {
    for (let i = 1; i < names.length; i++) if (!lstatSync(join(folder, ...names.slice(0, i))).isDirectory()) return [];
    const file = join(folder, ...names);
    return lstatSync(file).isFile() ? parseRules(readFileSync(file, 'utf8')) : [];
  } catch {
    return [];
  }
}

/** Where the workspace's own exclude file sits under its root (`.git/info/exclude`), as names. */
const EXCLUDE = ['.git', 'info', 'exclude'];

/**
 * The folder whose ignore rules a changed path may have changed, or null: a `.gitignore`'s folder, or the root
 * for `.git/info/exclude` and the folders that hold it (made or removed whole). `path` is absolute, inside `root`.
 */
export function rulesFolderOf(root: string, path: string): string | null {
  if (basename(path) === '.gitignore') return dirname(path);
  const rel = relative(root, path).split(sep);
  return rel.length <= EXCLUDE.length && rel.every((name, i) => name === EXCLUDE[i]) ? root : null;
}

/**
 * The workspace's `.gitignore` files (the root's and each folder's) and its `.git/info/exclude` (taken as the
 * root's, below its `.gitignore`), read as the walk reaches their folders: `ignores(path)` says whether git
 * would leave a file or folder out. Covers names, globs with `*` and `**`, anchored patterns and `!`
 * re-includes; a rules file that is not a regular file, or is reached through a link, is not read.
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
      // A later rule wins: the root's .gitignore over the exclude file.
      rules = [...(folder === this.#root ? readRules(folder, EXCLUDE) : []), ...readRules(folder, ['.gitignore'])];
      this.#byFolder.set(folder, rules);
    }
    return rules;
  }

  /** Forgets what was read of the rules in `folder` and the folders below it, after they changed or moved. */
  forget(folder: string): void {
    const below = folder + sep;
    for (const known of this.#byFolder.keys()) if (known === folder || known.startsWith(below)) this.#byFolder.delete(known);
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
