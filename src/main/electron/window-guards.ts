import type { WebContents } from 'electron';
import { isSafeExternalUrl } from './external-url.ts';

export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** The parts of a window's WebContents the guards hook into. */
export type GuardedContents = Pick<WebContents, 'setWindowOpenHandler' | 'on'> & {
  session: { setPermissionRequestHandler: WebContents['session']['setPermissionRequestHandler']; webRequest: Pick<WebContents['session']['webRequest'], 'onHeadersReceived'> };
};

/**
 * Blocks navigation and new windows, sends safe links to the OS browser through `openExternal` (the shell
 * passes Electron's shell.openExternal), and sets a strict CSP header. Electron is only a type here.
 */
export function guardWindow(contents: GuardedContents, isAppUrl: (url: string) => boolean, openExternal: (url: string) => Promise<void>): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void openExternal(url).catch(() => {});
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    if (isSafeExternalUrl(url)) void openExternal(url).catch(() => {});
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [WINDOW_CSP] } });
  });
}
