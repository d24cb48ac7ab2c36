import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { PROJECT_CONTEXT_LIMIT_BYTES, PROJECT_FILE_LIMIT_BYTES, readProjectContext } from './project-context.ts';

// Hostile project folders: whatever sits where AGENTS.md is looked for, reading the project's context ends
// at once, reads nothing outside the project, and at most its limits.

let dir: string;
let repo: string;
let workspace: string;
let server: Server | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-project-context-'));
  repo = join(dir, 'repo');
  workspace = join(repo, 'app');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(workspace);
});

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

test('a FIFO named AGENTS.md is left out at once, without waiting for a writer', async () => {
  execFileSync('mkfifo', [join(workspace, 'AGENTS.md')]);
  writeFileSync(join(repo, 'AGENTS.md'), 'ROOT RULE');
  const started = performance.now();
  const context = await readProjectContext(workspace);
  expect(performance.now() - started).toBeLessThan(1000);
  expect(context.files.map((f) => f.text)).toEqual(['ROOT RULE']);
  expect(context.skipped).toEqual([`${join(workspace, 'AGENTS.md')}: it is not a regular file`]);
});

test('a socket named AGENTS.md is left out', async () => {
  server = createServer();
  await new Promise<void>((r) => server!.listen(join(workspace, 'AGENTS.md'), r));
  const context = await readProjectContext(workspace);
  expect(context.files).toEqual([]);
  expect(context.skipped).toEqual([`${join(workspace, 'AGENTS.md')}: it is not a regular file`]);
});

test('a device named AGENTS.md is left out, linked from outside or made inside the project', async () => {
  symlinkSync('/dev/zero', join(workspace, 'AGENTS.md'));
  expect((await readProjectContext(workspace)).skipped).toEqual([`${join(workspace, 'AGENTS.md')}: it leads outside the project`]);
  if (process.getuid?.() !== 0) return;
  // Only root can make a device node: /dev/zero's own numbers, inside the project.
  rmSync(join(workspace, 'AGENTS.md'));
  execFileSync('mknod', [join(workspace, 'AGENTS.md'), 'c', '1', '5']);
  const started = performance.now();
  const context = await readProjectContext(workspace);
  expect(performance.now() - started).toBeLessThan(1000);
  expect(context.files).toEqual([]);
  expect(context.skipped).toEqual([`${join(workspace, 'AGENTS.md')}: it is not a regular file`]);
});

test('a link to a file outside the project is not read; one to a file inside it is', async () => {
  writeFileSync(join(dir, 'secret.txt'), 'SECRET OUTSIDE');
  symlinkSync(join(dir, 'secret.txt'), join(workspace, 'AGENTS.md'));
  writeFileSync(join(repo, 'rules.md'), 'RULES INSIDE');
  symlinkSync(join(repo, 'rules.md'), join(repo, 'CLAUDE.md'));
  const context = await readProjectContext(workspace);
  expect(context.files.map((f) => f.text)).toEqual(['RULES INSIDE']);
  expect(context.skipped).toEqual([`${join(workspace, 'AGENTS.md')}: it leads outside the project`]);
});

test('a 10 MB AGENTS.md is cut at the limit, and all the files together at theirs, the nearest first', async () => {
  writeFileSync(join(workspace, 'AGENTS.md'), `${'é'.repeat(5 * 1024 * 1024)}TAIL`);
  const cut = await readProjectContext(workspace);
  expect(cut.files).toHaveLength(1);
  expect(cut.files[0]).toMatchObject({ truncated: true, limitBytes: PROJECT_FILE_LIMIT_BYTES });
  expect(Buffer.byteLength(cut.files[0]!.text)).toBe(PROJECT_FILE_LIMIT_BYTES);
  expect(cut.files[0]!.text).not.toContain('TAIL');
  // Nine folders of full files: only what fits in the total is read, from the workspace upward.
  const folders = [repo, workspace];
  for (let i = 0; i < 7; i++) folders.push(join(folders.at(-1)!, `d${i}`));
  for (const folder of folders) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'AGENTS.md'), `${folder}\n${'x'.repeat(PROJECT_FILE_LIMIT_BYTES)}`);
  }
  const deep = folders.at(-1)!;
  const all = await readProjectContext(deep);
  const bytes = all.files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  expect(bytes).toBeLessThanOrEqual(PROJECT_CONTEXT_LIMIT_BYTES);
  expect(all.files.at(-1)!.path).toBe(join(deep, 'AGENTS.md'));
  expect(all.files[0]!.path).not.toBe(join(repo, 'AGENTS.md'));
  expect(all.skipped.some((s) => s.startsWith(`${join(repo, 'AGENTS.md')}: the project's instruction files already fill`))).toBe(true);
});

test('AGENTS.md in a folder above the workspace is read only inside the same git repository', async () => {
  // Above a workspace outside any repository: nothing.
  const loose = join(dir, 'loose', 'ws');
  mkdirSync(loose, { recursive: true });
  writeFileSync(join(dir, 'loose', 'AGENTS.md'), 'PARENT OF LOOSE');
  writeFileSync(join(dir, 'AGENTS.md'), 'ABOVE EVERYTHING');
  expect((await readProjectContext(loose)).files).toEqual([]);
  // A repository inside another: its own root is where the walk stops.
  const inner = join(repo, 'vendor', 'inner');
  mkdirSync(join(inner, '.git'), { recursive: true });
  writeFileSync(join(repo, 'AGENTS.md'), 'OUTER REPO');
  writeFileSync(join(inner, 'AGENTS.md'), 'INNER REPO');
  const context = await readProjectContext(join(inner));
  expect(context.gitRoot).toBe(inner);
  expect(context.files.map((f) => f.text)).toEqual(['INNER REPO']);
  // The same repository: from its root down.
  expect((await readProjectContext(workspace)).files.map((f) => f.text)).toEqual(['OUTER REPO']);
});

test('past its time, the files not read yet are left out with a note', async () => {
  writeFileSync(join(workspace, 'AGENTS.md'), 'RULE');
  const context = await readProjectContext(workspace, { timeoutMs: 0 });
  expect(context.files).toEqual([]);
  expect(context.skipped).toEqual([
    `${workspace}: finding and reading the project's instruction files took longer than 0 s, so the files not read by then are left out`,
  ]);
});
