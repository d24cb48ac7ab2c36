import type { IpcMainInvokeEvent, WebContents } from 'electron';

/**
 * Whether an IPC message comes from the app itself: from `appContents` (the main window's page), from its
 * top frame (never an iframe), showing the app's own page. Electron is only a type here, so this runs and is
 * tested under plain Node.
 */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  appContents: WebContents | null,
  isAppUrl: (url: string) => boolean,
): boolean {
  const frame = event.senderFrame;
  return appContents !== null && event.sender === appContents && frame !== null && frame.parent === null && isAppUrl(frame.url);
}
