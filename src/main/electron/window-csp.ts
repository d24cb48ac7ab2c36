/**
 * The content security policy of the app's window: its own origin only (`amber://app`, or the dev server),
 * no plugins, no base or form targets, never framed. Sent as a header with the page: `amber://` responses
 * carry it from the protocol handler, the dev server's through the session's response hook.
 */
export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
