// A loopback HTTP server on 127.0.0.1 that answers 401 (or 403 for a wrong token) unless the request
// carries `Authorization: Bearer <token>`, and passes authorized requests on to another loopback server.
import { createServer, request, type Server } from 'node:http';

export interface AuthProxy {
  url: string;
  /** How many requests it refused. */
  refused: number;
  close(): Promise<void>;
}

/** `target`: the origin authorized requests go to (null: none do, every request is refused with 401). */
export async function startAuthProxy(token: string, target: string | null): Promise<AuthProxy> {
  const state = { refused: 0 };
  const server: Server = createServer((req, res) => {
    const auth = req.headers.authorization;
    if (target === null || auth !== `Bearer ${token}`) {
      state.refused++;
      const status = auth === undefined || target === null ? 401 : 403;
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
      res.end(JSON.stringify({ error: status === 401 ? 'unauthorized' : 'forbidden' }));
      return;
    }
    const to = new URL(req.url ?? '/', target);
    const upstream = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
