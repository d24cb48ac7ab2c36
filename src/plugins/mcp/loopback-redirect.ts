import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { OAuthRefusal } from './oauth-fetch.ts';

// The redirect an OAuth sign-in comes back on (RFC 8252 §7.3): a listener on 127.0.0.1 at a random port,
// for one use. It answers only `GET /callback` with the Host it listens on (a page elsewhere cannot rebind a
// name to it); the first such request settles it, whatever it carries, and the listener closes. The state
// must be the one Amber sent, and an `iss` the authorization server adds must be its issuer (RFC 9207).

export interface LoopbackRedirect {
  redirectUrl: string;
  /** A fresh random state for this sign-in. */
  state: string;
  /** The authorization code, or a refusal (wrong state, the server's error, timeout) as an OAuthRefusal. */
  code: Promise<string>;
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function openLoopbackRedirect(options: { timeoutMs?: number; issuer?: () => string | undefined } = {}): Promise<LoopbackRedirect> {
  const state = randomBytes(24).toString('base64url');
  let settle: { resolve(code: string): void; reject(e: Error): void } | null = null;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be listening yet when it fails; the caller hears it when it awaits.
  code.catch(() => {});
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const host = `127.0.0.1:${port}`;
    if (req.method !== 'GET' || url.pathname !== '/callback' || req.headers.host !== host || settle === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const done = settle;
    settle = null;
    const fail = (why: string) => {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(PAGE('Sign-in refused', escape(why)));
      done.reject(new OAuthRefusal(why));
      close();
    };
    const params = url.searchParams;
    if (params.get('state') !== state) return fail('The sign-in came back with a state Amber did not send; Amber refused it. Try Sign in again.');
    const issuer = options.issuer?.();
    const iss = params.get('iss');
    if (iss !== null && issuer !== undefined && iss.replace(/\/+$/, '') !== issuer.replace(/\/+$/, ''))
      return fail('The sign-in came back from another authorization server than the one Amber asked; Amber refused it.');
    const error = params.get('error');
    if (error !== null) {
      const description = params.get('error_description');
      return fail(`The authorization server did not sign you in: ${(description ?? error).slice(0, 300)}.`);
    }
    const value = params.get('code');
    if (!value || value.length > 4096) return fail('The sign-in came back without an authorization code.');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(PAGE('Signed in', 'You can close this tab and go back to Amber.'));
    done.resolve(value);
    close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const timer = setTimeout(
    () => {
      settle?.reject(new OAuthRefusal('The sign-in was not finished in the browser in time; press Sign in again.'));
      settle = null;
      close(true);
    },
    options.timeoutMs ?? 10 * 60_000,
  );
  /** The answer page goes out with `connection: close`; a timeout or a cancel ends every connection at once. */
  function close(force = false): void {
    clearTimeout(timer);
    server.close();
    if (force) server.closeAllConnections();
    else server.closeIdleConnections();
  }
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    state,
    code,
    close() {
      settle?.reject(new OAuthRefusal('The sign-in was cancelled.'));
      settle = null;
      close(true);
    },
  };
}
