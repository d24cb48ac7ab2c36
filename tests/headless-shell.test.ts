import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../src/main/headless/headless-shell.ts';
import { SCHEMA_VERSION } from '../src/main/sessions/index.ts';

let dir: string;
let shell: HeadlessShell;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-headless-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Amber</title>');
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir });
});

afterEach(async () => {
  await shell.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the headless shell listens on loopback, opens the database and answers health', async () => {
  expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  const res = await fetch(`http://127.0.0.1:${shell.port}/health?token=${shell.token}`);
  expect(await res.json()).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION, sessions: 0 });
});

test('health without the token reveals only liveness', async () => {
  const res = await fetch(`http://127.0.0.1:${shell.port}/health`);
  expect(await res.json()).toEqual({ ok: true });
});

test('serves the renderer and never a file outside it', async () => {
  const index = await fetch(`http://127.0.0.1:${shell.port}/`);
  expect(await index.text()).toContain('<title>Amber</title>');
  const escape = await fetch(`http://127.0.0.1:${shell.port}/..%2f..%2fdata%2famber.db`);
  expect(await escape.text()).toContain('<title>Amber</title>');
});
