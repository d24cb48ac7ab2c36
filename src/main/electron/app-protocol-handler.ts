import { readFile } from 'node:fs/promises';
import { rendererFile } from './renderer-file.ts';
import { WINDOW_CSP } from './window-csp.ts';

export interface AppProtocolHandlerOptions {
  /** Reads a file the handler chose (a real path inside the renderer folder). Default: the file system. */
  read?: (path: string) => Promise<Uint8Array>;
}

/**
 * The handler for `protocol.handle('amber', …)`: serves the built renderer's files and nothing else
 * (`rendererFile` decides which), GET and HEAD only, each with its type, `nosniff`, and for HTML the
 * window's CSP. Anything else is a plain 404 or 405. Uses only the fetch API's Request and Response, so it
 * runs and is tested under plain Node. Never rejects.
 */
export function appProtocolHandler(rendererDir: string, options: AppProtocolHandlerOptions = {}): (request: Request) => Promise<Response> {
  const read = options.read ?? ((path: string) => readFile(path));
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Only GET and HEAD are served here.', { allow: 'GET, HEAD' });
    const file = rendererFile(request.url, rendererDir);
    if (file === null) return plain(404, 'Not found.');
    let body: Uint8Array;
    try {
      body = await read(file.path);
    } catch {
      return plain(404, 'Not found.');
    }
    const headers: Record<string, string> = {
      'content-type': file.type,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    };
    if (file.type.startsWith('text/html')) headers['content-security-policy'] = WINDOW_CSP;
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...extra } });
}
