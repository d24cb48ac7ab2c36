import { pathToFileURL } from 'node:url';

/**
 * Whether a URL is the app's own page: the built renderer's index.html (any query or fragment), or, in
 * development, a page of the dev server's origin. Compared as parsed origins, never as string prefixes
 * (`http://localhost:5173.evil.example` is not the dev server).
 */
export function appUrlCheck(options: { rendererFile: string; devUrl?: string | undefined }): (url: string) => boolean {
  const page = pathToFileURL(options.rendererFile).href;
  const devOrigin = options.devUrl ? originOf(options.devUrl) : null;
  return (url) => {
    if (options.devUrl) return devOrigin !== null && originOf(url) === devOrigin;
    return url.split(/[?#]/)[0] === page;
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
