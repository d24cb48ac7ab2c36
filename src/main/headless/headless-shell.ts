import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve as resolvePath } from 'node:path';
import { type Duplex, pipeline } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { WIRE_PATH, WIRE_TOKEN_PARAM, WireRequest, type WireFrame } from '../../shared/api/index.ts';
import { type ApiRouter, createApiRouter } from '../api/index.ts';
import { type App, type AppOptions, createApp } from '../app.ts';
import { isInside } from '../is-inside.ts';

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

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** The Host a request must name: this shell's port on a loopback name (a rebound DNS name is refused). */
function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * The decoded path and the query of a request target, read as sent: `..` segments are kept for the
 * folder guard to see. null for a target that is not a plain path (`//host`, absolute form), does not
 * decode, or holds a NUL.
 */
function parseTarget(raw: string | undefined): { pathname: string; query: URLSearchParams } | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  const cut = raw.search(/[?#]/);
  let pathname: string;
  try {
    pathname = decodeURIComponent(cut === -1 ? raw : raw.slice(0, cut));
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const query = cut !== -1 && raw[cut] === '?' ? raw.slice(cut + 1).split('#')[0]! : '';
  return { pathname, query: new URLSearchParams(query) };
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

  // Set once listening; requests only arrive after that.
  let port = 0;

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hostAllowed(req.headers.host, port)) {
      sendText(res, 421, 'Misdirected request: open Amber at the address it printed (http://127.0.0.1:<port>/).');
      return;
    }
    const target = parseTarget(req.url);
    if (!target) {
      sendText(res, 400, 'Bad request: the address is not a valid path.');
      return;
    }
    if (target.pathname === '/health') {
      // Without the token, only liveness; with it, what the core reports.
      if (tokenMatches(target.query.get(WIRE_TOKEN_PARAM) ?? req.headers['x-amber-token']?.toString() ?? null, token)) sendJson(res, 200, app.health());
      else sendJson(res, 200, { ok: true });
      return;
    }
    if (target.pathname.startsWith('/api/')) {
      sendJson(res, 404, { code: 'not_found', message: `No API route ${target.pathname}.` });
      return;
    }
    serveStatic(options.rendererDir, target.pathname, res);
  };

  // No request may end the shell: whatever a handler throws becomes a 400 (or a closed response).
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      route(req, res);
    } catch {
      if (!res.headersSent) sendText(res, 400, 'Bad request.');
      else res.destroy();
    }
  };

  const server: Server = createServer(handle);
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  server.on('upgrade', (req, socket, head) => {
    // The API over WebSocket: only on its path, only with this run's token, only from this origin and host.
    socket.on('error', () => socket.destroy());
    try {
      const target = parseTarget(req.url);
      if (!hostAllowed(req.headers.host, port)) {
        refuse(socket, '421 Misdirected Request');
        return;
      }
      const origin = req.headers.origin;
      const sameOrigin = origin === undefined || origin === `http://${req.headers.host}`;
      if (!target || target.pathname !== WIRE_PATH || !tokenMatches(target.query.get(WIRE_TOKEN_PARAM), token) || !sameOrigin) {
        refuse(socket, '401 Unauthorized');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    } catch {
      refuse(socket, '400 Bad Request');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    app,
    api,
    port,
    token,
    url: `http://127.0.0.1:${port}/?${WIRE_TOKEN_PARAM}=${token}`,
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

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
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
    void api
      .call(request.channel, request.input)
      .then((result) =>
        send(
          result.ok ? { kind: 'result', id: request.id, ok: true, value: result.value } : { kind: 'result', id: request.id, ok: false, error: result.error },
        ),
      );
  });
}

function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    sendText(res, 503, 'The renderer is not built yet: run `npm run build`, then reload.');
    return;
  }
  const target = staticTarget(root, pathname);
  if (target === null) {
    sendText(res, 404, 'Not found.');
    return;
  }
  const file = target ?? index;
  const stream = createReadStream(file);
  // A file that vanishes or cannot be read ends this response, never the shell.
  stream.on('error', () => {
    if (!res.headersSent) sendText(res, 404, 'Not found.');
    else res.destroy();
  });
  stream.once('open', () => {
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': file === index ? 'no-store' : 'public, max-age=31536000, immutable',
      // The page URL carries the token until the page removes it: it must never leave in a Referer, and
      // the page is never framed.
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      ...(file === index ? { 'content-security-policy': PAGE_CSP } : {}),
    });
    // A client that goes away mid-file closes the file too.
    pipeline(stream, res, () => {});
  });
}

/**
 * The file a decoded request path names inside the renderer folder: the file, `undefined` for the page
 * itself (any other path inside the folder, for the app's own routes), or `null` when the path, following
 * `..` and links, would leave the folder. Paths are never clamped at the root before this check.
 */
function staticTarget(folder: string, pathname: string): string | null | undefined {
  const root = resolvePath(folder);
  const file = join(root, pathname);
  if (!isInside(root, file)) return null;
  if (!existsSync(file)) return undefined;
  // A link inside the folder must not lead out of it.
  if (!isInside(realpathSync(root), realpathSync(file))) return null;
  return statSync(file).isFile() ? file : undefined;
}
