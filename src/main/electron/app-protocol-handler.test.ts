// The amber:// handler with the fetch API's Request and Response under plain Node, over a real folder.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { appProtocolHandler } from './app-protocol-handler.ts';
import { WINDOW_CSP } from './window-csp.ts';

let dir: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-protocol-')));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Amber</title>');
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secrets.json'), '{"key":"sk-1"}');
  handle = appProtocolHandler(join(dir, 'renderer'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the page is served with its type, nosniff and the window's CSP", async () => {
  const res = await handle(new Request('amber://app/index.html'));
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('<!doctype html><title>Amber</title>');
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe(WINDOW_CSP);
});

test('a script is served as JavaScript, without a CSP of its own; HEAD has no body', async () => {
  const res = await handle(new Request('amber://app/assets/app.js'));
  expect([res.status, res.headers.get('content-type'), res.headers.get('content-security-policy')]).toEqual([200, 'text/javascript; charset=utf-8', null]);
  expect(await res.text()).toBe('console.log(1)');
  const head = await handle(new Request('amber://app/assets/app.js', { method: 'HEAD' }));
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
});

test.each(['amber://app/..%2fsecrets.json', 'amber://app/../secrets.json', 'amber://other/index.html', 'amber://app/nothing.js'])(
  '%s is a plain 404 that says nothing of the disk',
  async (url) => {
    const res = await handle(new Request(url));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found.');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  },
);

test('only GET and HEAD are served', async () => {
  const res = await handle(new Request('amber://app/index.html', { method: 'POST', body: 'x' }));
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('GET, HEAD');
});

test('a file that cannot be read once chosen is a 404, not a rejection', async () => {
  const failing = appProtocolHandler(join(dir, 'renderer'), { read: () => Promise.reject(new Error('EACCES')) });
  expect((await failing(new Request('amber://app/index.html'))).status).toBe(404);
});
