import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { type App, createApp } from '../app.ts';

export interface HeadlessOptions {
  dataDir: string;
  /** The built renderer (out/renderer); when missing, the shell still answers the API and health. */
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a fresh random one per run otherwise. */
  token?: string;
}

export interface HeadlessShell {
  readonly app: App;
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * The headless shell: the same core as the desktop app under plain Node, serving the built renderer and
 * the API on 127.0.0.1 only, guarded by a per-run token carried in the printed URL.
 */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessShell> {
  const app = createApp({ dataDir: options.dataDir });
  const token = options.token ?? randomBytes(18).toString('base64url');

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/health') {
      // Without the token, only liveness; with it, what the core reports.
      if (tokenMatches(url.searchParams.get('token') ?? req.headers['x-amber-token']?.toString() ?? null, token)) sendJson(res, 200, app.health());
      else sendJson(res, 200, { ok: true });
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      sendJson(res, 404, { code: 'not_found', message: `No API route ${url.pathname}.` });
      return;
    }
    serveStatic(options.rendererDir, url.pathname, res);
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.dispose();
    },
  };
}

function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The renderer is not built yet: run `npm run build`, then reload.');
    return;
  }
  const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  const file = join(root, relative);
  const inside = file === root || file.startsWith(root.endsWith(sep) ? root : root + sep);
  const target = inside && existsSync(file) && statSync(file).isFile() ? file : index;
  res.writeHead(200, {
    'content-type': MIME[extname(target)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'cache-control': target === index ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  createReadStream(target).pipe(res);
}
