import { type ApiResult, type Channel, type EventName, WIRE_PATH, WIRE_TOKEN_PARAM, WireFrame } from '../../shared/api/index.ts';
import type { Transport } from './amber-client.ts';

const TOKEN_KEY = 'amber.token';

/**
 * The per-run token: taken from the page URL on the first load and removed from the address bar at once
 * (so it is not left in history, bookmarks or a shared screen), kept in memory for reconnects and in this
 * tab's sessionStorage for a reload. A URL with a token (a restarted shell's) replaces the kept one.
 */
function takeToken(): string {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get(WIRE_TOKEN_PARAM);
  if (fromUrl === null) {
    try {
      return sessionStorage.getItem(TOKEN_KEY) ?? '';
    } catch {
      return '';
    }
  }
  try {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
  } catch {
    // Storage refused (a private window's quota): reconnects still work from memory, a reload does not.
  }
  params.delete(WIRE_TOKEN_PARAM);
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
  return fromUrl;
}

/**
 * The API over the headless shell's WebSocket, with the per-run token (see takeToken). Requests made
 * while disconnected wait for the connection; a lost connection is retried with a growing delay, and calls
 * that were in flight fail with a sentence saying so.
 */
export function createWsTransport(): Transport {
  const token = takeToken();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WIRE_PATH}?${WIRE_TOKEN_PARAM}=${encodeURIComponent(token)}`;
  let socket: WebSocket | null = null;
  let connected = false;
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, (result: ApiResult<unknown>) => void>();
  const queue: string[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(connected: boolean) => void>();

  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    for (const l of connectionListeners) l(value);
  };

  const connect = () => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      retryMs = 250;
      setConnected(true);
      for (const frame of queue.splice(0)) ws.send(frame);
    });
    ws.addEventListener('message', (message) => {
      let frame: WireFrame;
      try {
        frame = WireFrame.parse(JSON.parse(String(message.data)));
      } catch {
        return;
      }
      if (frame.kind === 'event') {
        for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
        return;
      }
      const resolve = pending.get(frame.id);
      pending.delete(frame.id);
      resolve?.(frame.ok ? { ok: true, value: frame.value } : { ok: false, error: frame.error });
    });
    ws.addEventListener('close', () => {
      setConnected(false);
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({
          ok: false,
          error: { code: 'transport', message: 'Lost the connection to Amber while waiting for an answer. Check that Amber is still running, then try again.' },
        });
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    });
  };
  connect();

  return {
    send(channel: Channel, input: unknown) {
      const id = nextId++;
      const frame = JSON.stringify({ id, channel, input: input ?? {} });
      return new Promise((resolve) => {
        pending.set(id, resolve);
        if (connected && socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else queue.push(frame);
      });
    },
    subscribe(event: EventName, listener: (payload: unknown) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}
