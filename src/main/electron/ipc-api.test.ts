// serveIpcApi with a fake ipcMain, a fake router and fake senders: Electron is only a type in the module.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { expect, test } from 'vitest';
import { CHANNELS } from '../../shared/api/index.ts';
import { toDisposable } from '../../shared/disposable.ts';
import type { ApiRouter } from '../api/index.ts';
import { type IpcHandlers, serveIpcApi } from './ipc-api.ts';

type Handler = (event: IpcMainInvokeEvent, input: unknown) => unknown;

function fakeIpc() {
  const handlers = new Map<string, Handler>();
  const ipc: IpcHandlers = {
    handle: (channel: string, handler: Handler) => void handlers.set(channel, handler),
    removeHandler: (channel: string) => void handlers.delete(channel),
  } as unknown as IpcHandlers;
  return { ipc, handlers };
}

function fakeRouter() {
  const calls: { channel: string; input: unknown }[] = [];
  let listener: ((event: string, payload: unknown) => void) | null = null;
  const api = {
    call: async (channel: string, input: unknown) => (calls.push({ channel, input }), { ok: true, value: 'answered' }),
    subscribe: (l: (event: string, payload: unknown) => void) => ((listener = l), toDisposable(() => (listener = null))),
  } as unknown as Pick<ApiRouter, 'call' | 'subscribe'>;
  return { api, calls, emit: (event: string, payload: unknown) => listener?.(event, payload), subscribed: () => listener !== null };
}

function fakeContents(destroyed = false) {
  const sent: [string, unknown][] = [];
  const contents = { send: (channel: string, payload: unknown) => void sent.push([channel, payload]), isDestroyed: () => destroyed } as unknown as WebContents;
  return { contents, sent };
}

const trusted = { id: 'trusted' } as unknown as IpcMainInvokeEvent;
const stranger = { id: 'stranger' } as unknown as IpcMainInvokeEvent;

test('every channel of the contract is served, and a trusted sender reaches the router with its input', async () => {
  const { ipc, handlers } = fakeIpc();
  const router = fakeRouter();
  serveIpcApi(
    ipc,
    router.api,
    (e) => e === trusted,
    () => null,
  );
  expect([...handlers.keys()].sort()).toEqual([...CHANNELS].sort());
  const channel = CHANNELS[0]!;
  expect(await handlers.get(channel)!(trusted, { x: 1 })).toEqual({ ok: true, value: 'answered' });
  expect(router.calls).toEqual([{ channel, input: { x: 1 } }]);
});

test('a sender that is not the app is refused on every channel with a sentence, and the router never hears it', async () => {
  const { ipc, handlers } = fakeIpc();
  const router = fakeRouter();
  serveIpcApi(
    ipc,
    router.api,
    (e) => e === trusted,
    () => null,
  );
  for (const channel of CHANNELS) {
    expect(await handlers.get(channel)!(stranger, {})).toEqual({
      ok: false,
      error: { code: 'denied', message: 'Refused a request from a page that is not Amber.' },
    });
  }
  expect(router.calls).toEqual([]);
});

test('events go to the target window only while it exists, and disposing removes every handler and the subscription', () => {
  const { ipc, handlers } = fakeIpc();
  const router = fakeRouter();
  const live = fakeContents();
  const gone = fakeContents(true);
  let target: WebContents | null = live.contents;
  const served = serveIpcApi(
    ipc,
    router.api,
    () => true,
    () => target,
  );
  router.emit('session.changed', { id: 's1' });
  target = gone.contents;
  router.emit('session.changed', { id: 's2' });
  target = null;
  router.emit('session.changed', { id: 's3' });
  expect(live.sent).toEqual([['event:session.changed', { id: 's1' }]]);
  expect(gone.sent).toEqual([]);

  served.dispose();
  expect(handlers.size).toBe(0);
  expect(router.subscribed()).toBe(false);
});
