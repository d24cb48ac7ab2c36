/**
 * Web permissions the app's own page is granted, by Electron's permission name: none. The renderer uses no
 * camera, microphone, screen capture, location, notifications, clipboard API, devices or fullscreen API
 * (copying selected text is the editor's, not a permission). A permission added here is granted only to
 * the app's own origin, never to another page that somehow loads.
 */
const GRANTED: readonly string[] = [];

/**
 * The decision the session's permission handlers make: whether `permission`, asked for by a page at
 * `requestingUrl` (a URL or an origin), is granted. Only what `granted` lists, and only to `appOrigin`
 * (compared as scheme and host, lower-case, with the port). Electron is not needed here.
 */
export function permissionPolicy(appOrigin: string, granted: readonly string[] = GRANTED): (permission: string, requestingUrl: string) => boolean {
  const allowed = new Set(granted);
  const app = originOf(appOrigin);
  return (permission, requestingUrl) => app !== null && allowed.has(permission) && originOf(requestingUrl) === app;
}

/** `scheme://host[:port]` of a URL (WHATWG's `origin` is "null" for custom schemes), or null. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.host === '' || parsed.username !== '' || parsed.password !== '') return null;
    return `${parsed.protocol}//${parsed.host.toLowerCase()}`;
  } catch {
    return null;
  }
}
