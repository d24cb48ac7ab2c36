import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_ORIGIN } from './app-origin.ts';

/** A file of the built renderer that an `amber://app/…` URL names, with the type to serve it as. */
export interface RendererFile {
  /** Real path, inside the renderer folder's real path. */
  path: string;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under `rendererDir` that `url` names, or null when it names none there: another scheme or host,
 * a port or credentials, a path that is not plainly text (bad escapes, NUL, backslash), a `..` or `.`
 * segment after decoding (`%2e%2e`, `..%2f`), a path that leaves the folder as written or where its links
 * lead (real paths compared), or anything but a regular file. `/` is the page. The query and fragment are
 * ignored. Never throws.
 */
export function rendererFile(url: string, rendererDir: string): RendererFile | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_ORIGIN.scheme}:` || parsed.hostname.toLowerCase() !== APP_ORIGIN.host) return null;
  if (parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return null;
  const segments: string[] = [];
  for (const raw of parsed.pathname.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment) || /^[a-z]:$/i.test(segment)) return null;
    segments.push(segment);
  }
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) segments.splice(0, segments.length, 'index.html');
  if (segments.some((s) => s === '')) return null;
  const root = resolve(rendererDir);
  const written = resolve(root, ...segments);
  if (!inside(root, written)) return null;
  try {
    const real = realpathSync(written);
    if (!inside(realpathSync(root), real) || !statSync(real).isFile()) return null;
    return { path: real, type: TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}

/** `path` lies strictly below `folder` (both absolute and normalised). */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}
