import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { WIRE_PATH, WireRequest, type WireFrame } from '../../shared/api/index.ts';
import { type ApiRouter, createApiRouter } from '../api/index.ts';
import { type App, type AppOptions, createApp } from '../app.ts';

export interface HeadlessOptions {
  dataDir: string;
  /** The built renderer (out/renderer); when missing, the shell still answers the API and health. */
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a fresh random one per run otherwise. */
  token?: string;
  /** Seams of the core (provider resolver, tools, default model). */
  core?: Omit<AppOptions, 'dataDir'>;
}

export interface HeadlessShell {
  readonly app: App;
  readonly api: ApiRouter;
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

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

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
  const app = createApp({ ...options.core, dataDir: options.dataDir });
  const api = createApiRouter(app);
  const token = options.token ?? randomBytes(18).toString('base64url');
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  wss.on('connection', (socket) => serveSocket(socket, api));

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
  server.on('upgrade', (req, socket, head) => {
    // The API over WebSocket: only on its path, only with this run's token, only from this origin.
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = req.headers.origin;
    const sameOrigin = origin === undefined || origin === `http://127.0.0.1:${port}`;
    if (url.pathname !== WIRE_PATH || !tokenMatches(url.searchParams.get('token'), token) || !sameOrigin) {
      refuse(socket);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    api,
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      api.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.dispose();
    },
  };
}

function refuse(socket: Duplex): void {
  socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  socket.destroy();
}

/** One WebSocket client: requests answered in the order they finish; every core event forwarded. */
function serveSocket(socket: WebSocket, api: ApiRouter): void {
  const send = (frame: WireFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const subscription = api.subscribe((event, payload) => send({ kind: 'event', event, payload }));
  socket.on('close', () => subscription.dispose());
  socket.on('error', () => subscription.dispose());
  socket.on('message', (data, isBinary) => {
    let request: WireRequest;
    try {
      if (isBinary) throw new Error('binary frame');
      request = WireRequest.parse(JSON.parse(String(data)));
    } catch {
      socket.close(1003, 'Frames must be JSON API requests.');
      return;
    }
    void api.call(request.channel, request.input).then((result) =>
      send(result.ok ? { kind: 'result', id: request.id, ok: true, value: result.value } : { kind: 'result', id: request.id, ok: false, error: result.error }),
    );
  });
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
    // The page URL carries the token: it must never leave in a Referer, and the page is never framed.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    ...(target === index ? { 'content-security-policy': PAGE_CSP } : {}),
  });
  createReadStream(target).pipe(res);
}
