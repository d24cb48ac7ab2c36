import type { WebContents } from 'electron';
import { isSafeExternalUrl } from './external-url.ts';

/** The parts of a window's WebContents the guards hook into. */
export type GuardedContents = Pick<WebContents, 'setWindowOpenHandler' | 'on'>;

/**
 * Blocks navigation and new windows, sends safe links to the OS browser through `openExternal` (the shell
 * passes Electron's shell.openExternal), never attaches a webview and cancels any Bluetooth device picker.
 * What the session grants (permissions, devices, the CSP) is `guardSession`'s. Electron is only a type here.
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
  // Without a listener Electron picks the first device found for the page; an empty id cancels.
  contents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });
}
