// One pipe carries both RPC surfaces. The router wraps each outgoing message as `{ ch, m }` and hands an
// incoming one to the listeners of its channel only, so each side can expose one API and wrap the other's.

type Listener = ((event: { data: unknown }) => void) | { handleEvent(event: { data: unknown }): void };

/** The shape comlink's `expose` and `wrap` need from an endpoint. */
export interface ChannelEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
}

export interface ChannelRouter {
  endpoint(channel: string): ChannelEndpoint;
  /** Feed every message that arrives on the pipe here; returns false for one that is not an envelope. */
  dispatch(message: unknown): boolean;
}

export function createChannelRouter(send: (envelope: { ch: string; m: unknown }) => void): ChannelRouter {
  const listeners = new Map<string, Listener[]>();
  return {
    endpoint(channel) {
      return {
        postMessage: (m) => send({ ch: channel, m }),
        addEventListener(_type, listener) {
          const list = listeners.get(channel) ?? [];
          list.push(listener);
          listeners.set(channel, list);
        },
        removeEventListener(_type, listener) {
          const list = listeners.get(channel);
          if (list)
            listeners.set(
              channel,
              list.filter((l) => l !== listener),
            );
        },
      };
    },
    dispatch(message) {
      if (typeof message !== 'object' || message === null) return false;
      const { ch, m } = message as { ch?: unknown; m?: unknown };
      if (typeof ch !== 'string') return false;
      const list = listeners.get(ch);
      if (!list) return true;
      const event = { data: m };
      for (const l of list) {
        if (typeof l === 'function') l(event);
        else l.handleEvent(event);
      }
      return true;
    },
  };
}
