#!/usr/bin/env node
// Import-boundary lint: where code may run is said by its path (src/<process>/…), and this checks it.
//   shared   imports only shared, and nothing of node:*, electron or the DOM
//   renderer imports only renderer + shared          workers imports only workers + shared
//   plugins  imports only plugins + workers + shared  main/preload import only themselves + shared
//   `electron` at runtime only in shell files; `better-sqlite3` at runtime only in *-store.ts files.
//   workers (the plugin process) load nothing of src/shared/plugins at runtime (its schemas load zod): values
//   come from src/shared/plugin-wire; type-only imports are fine.
//   A folder with an index.ts is a feature with one face: from outside the folder, its files are reached
//   only through that index.ts (type-only imports too: the face is the feature's whole public surface).
//   Crossings that predate the rule are listed in face-exceptions.txt; the list may only shrink (a line that
//   no longer matches an import is reported too). Its header line `# count: N` says how many lines it may
//   hold: exactly N, so a new crossing needs the count raised in review, and a removed one lowers it.
// Type-only imports (`import type`) do not load code and are exempt from the runtime rules.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The project to check: this one, or the folder given as the first argument (tests check made-up trees).
const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');

const allowed = {
  shared: ['shared'],
  renderer: ['renderer', 'shared'],
  workers: ['workers', 'shared'],
  plugins: ['plugins', 'workers', 'shared'],
  main: ['main', 'shared'],
  preload: ['preload', 'shared'],
};
const isShellFile = (rel) => rel === 'main/index.ts' || rel.startsWith('main/electron/') || rel.startsWith('preload/');
const isStoreFile = (rel) => rel.endsWith('-store.ts');
const isTest = (rel) => /\.test\.tsx?$/.test(rel);

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * The face an import from `fromRel` into `targetRel` must go through, or null when none: the outermost
 * folder holding the target that has an index.ts and does not hold the importing file.
 */
function requiredFace(fromRel, targetRel) {
  const parts = targetRel.split('/');
  for (let i = 2; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    if (fromRel.startsWith(`${folder}/`)) continue;
    if (existsSync(join(src, folder, 'index.ts'))) return folder;
  }
  return null;
}

const exceptionsFile = join(root, 'scripts', 'face-exceptions.txt');
const exceptionLines = (existsSync(exceptionsFile) ? readFileSync(exceptionsFile, 'utf8') : '').split('\n').map((l) => l.trim());
const faceExceptions = new Set(exceptionLines.filter((l) => l && !l.startsWith('#')));
const faceExceptionsSeen = new Set();
const problems = [];

// The allowed number of listed crossings, from the header line `# count: N` (none listed needs no header).
const countLine = exceptionLines.find((l) => /^#\s*count:/.test(l));
const allowedCount = countLine === undefined ? (faceExceptions.size === 0 ? 0 : null) : Number(countLine.replace(/^#\s*count:\s*/, ''));
if (allowedCount === null || !Number.isInteger(allowedCount) || allowedCount < 0) {
  problems.push(`scripts/face-exceptions.txt has no valid '# count: N' header line: write '# count: ${faceExceptions.size}' at its top`);
} else if (faceExceptions.size > allowedCount) {
  problems.push(
    `scripts/face-exceptions.txt lists ${faceExceptions.size} crossings but its count allows ${allowedCount}: import from the feature's index.ts instead of adding a line`,
  );
} else if (faceExceptions.size < allowedCount) {
  problems.push(
    `scripts/face-exceptions.txt lists ${faceExceptions.size} crossings, fewer than its count of ${allowedCount}: lower the count to ${faceExceptions.size}`,
  );
}

const importRe = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
for (const file of walk(src)) {
  const rel = relative(src, file).split(sep).join('/');
  const proc = rel.split('/')[0];
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const typeOnly = Boolean(m[2]);
    const spec = m[4] ?? m[5];
    const line = text.slice(0, m.index).split('\n').length;
    const where = `src/${rel}:${line}`;
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec))
        .split(sep)
        .join('/');
      if (target.startsWith('..')) {
        problems.push(`${where} imports '${spec}', outside src/`);
        continue;
      }
      const targetProc = target.split('/')[0];
      if (!(allowed[proc] ?? []).includes(targetProc)) problems.push(`${where}: ${proc} may not import ${targetProc} ('${spec}')`);
      if (proc === 'workers' && !typeOnly && !isTest(rel) && target.startsWith('shared/plugins/')) {
        problems.push(
          `${where}: the plugin process loads no zod, but imports '${spec}' at runtime: take values from src/shared/plugin-wire/index.ts (import type is fine)`,
        );
      }
      const face = requiredFace(rel, target);
      if (face !== null && target !== `${face}/index.ts` && target !== face) {
        const key = `src/${rel} -> src/${target}`;
        if (faceExceptions.has(key)) faceExceptionsSeen.add(key);
        else problems.push(`${where} imports '${spec}' past the face of src/${face}: import it from src/${face}/index.ts`);
      }
      continue;
    }
    if (typeOnly) continue;
    if (proc === 'shared' && (spec.startsWith('node:') || spec === 'electron' || spec === 'better-sqlite3' || spec === 'ws')) {
      problems.push(`${where}: shared must stay pure, but imports '${spec}'`);
    }
    if (proc === 'renderer' && spec.startsWith('node:')) problems.push(`${where}: the renderer may not import '${spec}'`);
    if (spec === 'electron' && !isShellFile(rel)) problems.push(`${where}: 'electron' is imported at runtime outside a shell file (use import type)`);
    if (spec === 'better-sqlite3' && !isStoreFile(rel) && !isTest(rel)) problems.push(`${where}: 'better-sqlite3' is imported outside a *-store.ts file`);
  }
}

for (const key of faceExceptions)
  if (!faceExceptionsSeen.has(key)) problems.push(`scripts/face-exceptions.txt lists '${key}', which no longer happens: delete the line`);

if (problems.length) {
  console.error(`Import boundaries broken (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`import boundaries: ok (${faceExceptions.size} older imports past a feature's face are listed in scripts/face-exceptions.txt)`);
