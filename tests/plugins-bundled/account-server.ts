// A loopback HTTP server answering like OpenRouter's credits endpoint (GET /api/v1/credits) and DeepSeek's
// balance endpoint (GET /user/balance), in their formats and with their error answers, switchable per test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  | { kind: 'ok'; body: unknown }
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'malformed' }
  /** Never answers: the client must time out. */
  | { kind: 'hang' };

export interface SeenRequest {
  path: string;
  authorization: string | undefined;
}

export interface AccountServer {
  /** Base URLs to put in the wallet config. */
  openrouterBaseUrl: string;
  deepseekBaseUrl: string;
  answer: { openrouter: Answer; deepseek: Answer };
  seen: SeenRequest[];
  /** Resolves with the request once the server has seen `count` requests to `path`. */
  requests(path: string, count: number): Promise<SeenRequest[]>;
  close(): Promise<void>;
}

export const OPENROUTER_PATH = '/api/v1/credits';
export const DEEPSEEK_PATH = '/user/balance';

/** OpenRouter's error shape: `{ error: { code, message } }` with the same HTTP status. */
export const openrouterError = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  kind: 'status',
  status,
  body: { error: { code: status, message } },
  headers,
});
/** DeepSeek's error shape follows OpenAI's: `{ error: { message, type, param, code } }`. */
export const deepseekError = (status: number, message: string, type: string): Answer => ({
  kind: 'status',
  status,
  body: { error: { message, type, param: null, code: 'invalid_request_error' } },
});

function reply(res: ServerResponse, a: Answer): void {
  switch (a.kind) {
    case 'ok':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
      return;
    case 'status':
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(JSON.stringify(a.body));
      return;
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": {"total_credits": 20, "total_usage"');
      return;
    case 'hang':
      return;
  }
}

export async function startAccountServer(): Promise<AccountServer> {
  const seen: SeenRequest[] = [];
  const waiters: { path: string; count: number; resolve: (r: SeenRequest[]) => void }[] = [];
  const answer: AccountServer['answer'] = {
    openrouter: { kind: 'ok', body: { data: { total_credits: 20, total_usage: 5.25 } } },
    deepseek: {
      kind: 'ok',
      body: { is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '110.00', granted_balance: '10.00', topped_up_balance: '100.00' }] },
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.push({ path, authorization: req.headers.authorization });
    const pending = waiters.splice(0);
    for (const w of pending) {
      const hits = seen.filter((s) => s.path === w.path);
      if (hits.length >= w.count) w.resolve(hits);
      else waiters.push(w);
    }
    if (req.method !== 'GET') {
      res.writeHead(405);
      res.end();
    } else if (path === OPENROUTER_PATH) reply(res, answer.openrouter);
    else if (path === DEEPSEEK_PATH) reply(res, answer.deepseek);
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not Found' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    openrouterBaseUrl: `${base}/api/v1`,
    deepseekBaseUrl: base,
    answer,
    seen,
    requests(path, count) {
      const hits = seen.filter((s) => s.path === path);
      if (hits.length >= count) return Promise.resolve(hits);
      return new Promise((resolve) => waiters.push({ path, count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
