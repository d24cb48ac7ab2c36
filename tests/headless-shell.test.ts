import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { WebSocket } from 'ws';
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

/** Sends bytes as they are (no client-side URL clean-up) and reads the whole answer. */
function rawRequest(port: number, head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    // Not half-closed: the answer may come after the request was read.
    socket.write(head);
  });
}

const get = (port: number, target: string, host = `127.0.0.1:${port}`) =>
  rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

async function expectAlive(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${shell.port}/health`);
  expect(await res.json()).toEqual({ ok: true });
}

test('serves the renderer and its files', async () => {
  writeFileSync(join(dir, 'renderer', 'app.js'), 'console.log(1)');
  const index = await fetch(`http://127.0.0.1:${shell.port}/`);
  expect(await index.text()).toContain('<title>Amber</title>');
  const script = await get(shell.port, '/app.js');
  expect(script.status).toBe(200);
  expect(script.text).toContain('console.log(1)');
});

test.each([
  ['dot segments', '/../data/amber.db'],
  ['encoded dot segments', '/%2e%2e/data/amber.db'],
  ['encoded slashes', '/..%2fdata%2famber.db'],
  ['a deep climb', '/assets/../../../data/amber.db'],
])('a path that leaves the renderer folder by %s is refused, not served', async (_how, target) => {
  const res = await get(shell.port, target);
  expect(res.status).toBe(404);
  expect(res.text).not.toContain('SQLite format 3');
  expect(res.text).not.toContain('<title>Amber</title>');
});

test('a link inside the renderer folder that leads out of it is refused', async () => {
  symlinkSync(join(dir, 'data'), join(dir, 'renderer', 'linked'));
  const res = await get(shell.port, '/linked/amber.db');
  expect(res.status).toBe(404);
  expect(res.text).not.toContain('SQLite format 3');
});

test.each([
  ['a broken percent-encoding', '/%E0%A4%A'],
  ['a target that is not a path', '//['],
  ['a NUL byte', '/%00'],
  ['an absolute-form target', 'http://[/'],
])('a request with %s is answered 400 and the shell keeps serving', async (_what, target) => {
  const res = await get(shell.port, target);
  expect(res.status).toBe(400);
  await expectAlive();
});

test('a page that cannot be read ends only its own response; the shell keeps serving', async () => {
  // The page is a folder: opening it works, reading it fails (EISDIR) once the answer has begun.
  rmSync(join(dir, 'renderer', 'index.html'));
  mkdirSync(join(dir, 'renderer', 'index.html'));
  const res = await get(shell.port, '/');
  expect(res.status).not.toBe(200);
  await expectAlive();
});

test('a malformed request line does not end the shell', async () => {
  const res = await rawRequest(shell.port, 'NOT A REQUEST\r\n\r\n');
  expect(res.status).toBe(400);
  await expectAlive();
});

test.each([
  ['a rebound DNS name', 'attacker.example:PORT'],
  ['loopback on another port', '127.0.0.1:1'],
  ['no port', 'localhost'],
])('a request naming %s as its host is answered 421', async (_what, host) => {
  const res = await get(shell.port, `/health?token=${shell.token}`, host.replace('PORT', String(shell.port)));
  expect(res.status).toBe(421);
  expect(res.text).not.toContain('schemaVersion');
});

test('a request without a Host header is answered 421', async () => {
  const res = await rawRequest(shell.port, `GET /health HTTP/1.0\r\n\r\n`);
  expect(res.status).toBe(421);
});

test('localhost with the right port is a valid host', async () => {
  const res = await get(shell.port, `/health?token=${shell.token}`, `localhost:${shell.port}`);
  expect(res.status).toBe(200);
  expect(res.text).toContain('schemaVersion');
});

const upgrade = (host: string, token: string, origin?: string) =>
  rawRequest(
    shell.port,
    `GET /api/ws?token=${token} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${origin ? `Origin: ${origin}\r\n` : ''}\r\n`,
  );

test('the WebSocket upgrade checks the host, the token and the origin', async () => {
  const host = `127.0.0.1:${shell.port}`;
  expect((await upgrade(`attacker.example:${shell.port}`, shell.token, `http://attacker.example:${shell.port}`)).status).toBe(421);
  expect((await upgrade(host, 'wrong')).status).toBe(401);
  expect((await upgrade(host, shell.token, 'http://evil.example')).status).toBe(401);
  expect((await upgrade('%', shell.token)).status).toBe(421);
  const socket = new WebSocket(`ws://localhost:${shell.port}/api/ws?token=${shell.token}`, { origin: `http://localhost:${shell.port}` });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.close();
});

test('a WebSocket upgrade with a malformed target is refused and the shell keeps serving', async () => {
  const res = await rawRequest(
    shell.port,
    `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${shell.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  );
  expect(res.status).toBe(401);
  await expectAlive();
});
