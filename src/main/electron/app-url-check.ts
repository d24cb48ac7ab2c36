import { APP_ORIGIN } from './app-origin.ts';

/**
 * Whether a URL is the app's own page: `amber://app/index.html` (any query or fragment), or, in
 * development, a page of the dev server's origin. The page is compared whole as Chromium reports it; origins
 * are compared parsed, never as string prefixes (`http://localhost:5173.evil.example` is not the dev server).
 */
export function appUrlCheck(options: { devUrl?: string | undefined } = {}): (url: string) => boolean {
  const devOrigin = options.devUrl ? originOf(options.devUrl) : null;
  return (url) => {
    if (options.devUrl) return devOrigin !== null && originOf(url) === devOrigin;
    return url.split(/[?#]/)[0] === APP_ORIGIN.page;
  };
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
