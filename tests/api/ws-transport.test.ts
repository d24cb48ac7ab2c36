import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import WebSocket from 'ws';
import { WIRE_PATH, WireFrame } from '../../src/shared/api/index.ts';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';

let dir: string;
let shell: HeadlessShell;
const open: WebSocket[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-ws-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Amber</title>');
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer') });
});

afterEach(async () => {
  for (const ws of open.splice(0)) ws.terminate();
  await shell.close();
  rmSync(dir, { recursive: true, force: true });
});

function connect(query: string, headers: Record<string, string> = {}): WebSocket {
  const ws = new WebSocket(`ws://127.0.0.1:${shell.port}${WIRE_PATH}${query}`, { headers });
  ws.on('error', () => {}); // refused and terminated sockets report here; the tests assert on responses instead
  open.push(ws);
  return ws;
}

function refusedStatus(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => reject(new Error('the connection was accepted')));
  });
}

/** A tiny client over the real socket: requests by id, events collected in order. */
async function client(ws: WebSocket) {
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const pending = new Map<number, (frame: WireFrame) => void>();
  const events: { event: string; payload: unknown }[] = [];
  const eventWaiters: (() => void)[] = [];
  ws.on('message', (data) => {
    const frame = WireFrame.parse(JSON.parse(String(data)));
    if (frame.kind === 'event') {
      events.push({ event: frame.event, payload: frame.payload });
      for (const w of eventWaiters.splice(0)) w();
    } else pending.get(frame.id)?.(frame);
  });
  return {
    events,
    call(channel: string, input: unknown): Promise<WireFrame> {
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, input }));
      });
    },
    async nextEvent(): Promise<void> {
      await new Promise<void>((resolve) => eventWaiters.push(resolve));
    },
  };
}

test('a WebSocket without the token is refused', async () => {
  expect(await refusedStatus(connect(''))).toBe(401);
  expect(await refusedStatus(connect('?token=wrong'))).toBe(401);
});

test('a WebSocket from another origin is refused even with the token', async () => {
  expect(await refusedStatus(connect(`?token=${shell.token}`, { origin: 'http://evil.example' }))).toBe(401);
});

test('with the token, calls are answered and events are pushed', async () => {
  const c = await client(connect(`?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` }));
  const eventArrived = c.nextEvent();
  const created = await c.call('sessions.create', { title: 'Plans' });
  expect(created).toMatchObject({ kind: 'result', ok: true, value: { title: 'Plans' } });
  await eventArrived;
  expect(c.events[0]).toMatchObject({ event: 'session.created', payload: { title: 'Plans' } });
  const list = await c.call('sessions.list', {});
  expect(list).toMatchObject({ ok: true, value: { total: 1, sessions: [{ title: 'Plans' }] } });
});

test('invalid input and unknown channels come back as { code, message }', async () => {
  const c = await client(connect(`?token=${shell.token}`));
  expect(await c.call('sessions.rename', { sessionId: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(await c.call('sessions.get', { sessionId: 'nope' })).toMatchObject({
    ok: false,
    error: { code: 'not_found', message: expect.stringContaining('does not exist') },
  });
  expect(await c.call('fs.readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
});

test('the page is served with a strict CSP and never sends its token in a Referer', async () => {
  const res = await fetch(`http://127.0.0.1:${shell.port}/?token=${shell.token}`);
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
});
