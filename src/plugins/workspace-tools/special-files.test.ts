import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { editTool, findTool, grepTool, lsTool, readTool, writeTool } from './index.ts';

let base: string;
let root: string;
let server: Server | undefined;
const ctx = () => ({ root });
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');
const argsFor = (path: string) => ({ path, pattern: 'TODO', content: 'written', oldText: 'TODO', newText: 'DONE' });
/** The tools that open what they are given; ls and find only list names. */
const OPENING = [readTool, grepTool, writeTool, editTool].map((tool) => [tool.spec.name, tool] as const);
const isRoot = process.getuid?.() === 0;
/** A tool that blocks on a FIFO never returns; one that refuses it returns in milliseconds. */
const FIFO_BOUND_MS = 5_000;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'amber-special-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), '// TODO: regular\n');
  execFileSync('mkfifo', [join(root, 'pipe')]);
  execFileSync('mkfifo', [join(root, 'src', 'deep-pipe.ts')]);
  const listening = createServer();
  server = listening;
  await new Promise<void>((done, fail) => {
    listening.once('error', fail);
    listening.listen(join(root, 'sock'), done);
  });
});

afterEach(async () => {
  // Should a tool ever block opening a FIFO, opening it both ways here lets that open finish (and then
  // see end of file), so a failing test ends instead of holding the file system threads.
  for (const fifo of [join(root, 'pipe'), join(root, 'src', 'deep-pipe.ts')]) closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
  rmSync(base, { recursive: true, force: true });
});

describe('FIFOs', () => {
  test.each(OPENING)(
    '%s refuses a FIFO with a sentence instead of blocking on it',
    async (_name, tool) => {
      const out = await tool.execute(argsFor('pipe'), ctx());
      expect(out.isError).toBe(true);
      expect(text(out)).toBe('pipe is a named pipe (FIFO), not a regular file; the workspace tools only read and write regular files.');
    },
    FIFO_BOUND_MS,
  );

  test(
    'a grep walk skips FIFOs and sockets and still searches regular files',
    async () => {
      expect(text(await grepTool.execute({ pattern: 'TODO' }, ctx()))).toBe('src/main.ts:1: // TODO: regular');
      expect(text(await grepTool.execute({ pattern: 'TODO', glob: '*.ts' }, ctx()))).toBe('src/main.ts:1: // TODO: regular');
    },
    FIFO_BOUND_MS,
  );

  test('ls and find list FIFOs and sockets by name without opening them', async () => {
    expect(text(await lsTool.execute({}, ctx()))).toBe('pipe\nsock\nsrc/');
    expect(text(await findTool.execute({ pattern: '*pipe*' }, ctx()))).toBe('pipe\nsrc/deep-pipe.ts');
  });
});

describe('sockets and devices', () => {
  test.each(OPENING)('%s refuses a unix socket with a sentence', async (_name, tool) => {
    const out = await tool.execute(argsFor('sock'), ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toBe('sock is a socket, not a regular file; the workspace tools only read and write regular files.');
  });

  test.runIf(isRoot).each(OPENING)('%s refuses a character device with a sentence', async (_name, tool) => {
    execFileSync('mknod', [join(root, 'null-device'), 'c', '1', '3']);
    const out = await tool.execute(argsFor('null-device'), ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toBe('null-device is a device, not a regular file; the workspace tools only read and write regular files.');
  });
});
