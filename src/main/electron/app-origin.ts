/**
 * Where the desktop app's own page lives: `amber://app/index.html`, served by main from the built renderer
 * folder alone. Not `file://`, whose origin is every local file: a page there could read any of them.
 * The scheme is registered before the app is ready as standard and secure (a real origin, a secure
 * context) with the fetch API, and without `corsEnabled`, so no other origin can read from it.
 */
export const APP_ORIGIN = {
  scheme: 'amber',
  host: 'app',
  /** As the page's frames report it (scheme and host lower-case, no port). */
  origin: 'amber://app',
  page: 'amber://app/index.html',
} as const;
