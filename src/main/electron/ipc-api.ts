import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { CHANNELS, eventChannel } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import type { ApiRouter } from '../api/index.ts';

/** The part of Electron's ipcMain the API is served over (the shell passes ipcMain itself). */
export type IpcHandlers = Pick<IpcMain, 'handle' | 'removeHandler'>;

/**
 * Serves the API contract over ipcMain: one handler per channel, each checking that the message comes
 * from the app's own window and page; events go to that window only. Electron is only a type here.
 */
export function serveIpcApi(
  ipcMain: IpcHandlers,
  api: Pick<ApiRouter, 'call' | 'subscribe'>,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  target: () => WebContents | null,
): Disposable {
  const store = new DisposableStore();
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!isTrustedSender(event)) return { ok: false, error: { code: 'denied', message: 'Refused a request from a page that is not Amber.' } };
      return api.call(channel, input);
    });
    store.add(toDisposable(() => ipcMain.removeHandler(channel)));
  }
  store.add(
    api.subscribe((event, payload) => {
      const contents = target();
      if (contents && !contents.isDestroyed()) contents.send(eventChannel(event), payload);
    }),
  );
  return store;
}
