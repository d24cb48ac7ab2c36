import {
  API_EVENTS,
  API_METHODS,
  ApiError,
  type AmberBridge,
  type ApiInput,
  type ApiOutput,
  type ApiResult,
  type Channel,
  type EventName,
  type EventPayload,
  splitChannel,
} from '../../shared/api/index.ts';
import { createWsTransport } from './ws-transport.ts';

/** The renderer's view of the API: typed calls that throw ApiError, and typed event subscriptions. */
export interface AmberClient {
  call<C extends Channel>(channel: C, input: ApiInput<C>): Promise<ApiOutput<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** 'bridge' in the desktop app, 'websocket' in a browser. */
  readonly transport: 'bridge' | 'websocket';
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

/** What both transports provide underneath the typed client. */
export interface Transport {
  send(channel: Channel, input: unknown): Promise<ApiResult<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

function bridgeTransport(bridge: AmberBridge): Transport {
  const table = bridge as unknown as Record<string, Record<string, (input: unknown) => Promise<ApiResult<unknown>>>> & {
    on: Record<string, (listener: (payload: unknown) => void) => () => void>;
  };
  return {
    send(channel, input) {
      const [domain, verb] = splitChannel(channel);
      return table[domain]![verb]!(input);
    },
    subscribe: (event, listener) => table.on[event]!(listener),
    onConnectionChange: () => () => {},
  };
}

/** Whichever transport is present: the preload bridge (desktop), else the loopback WebSocket (headless). */
export function createAmberClient(): AmberClient {
  const bridge = (window as unknown as { amber?: AmberBridge }).amber;
  const transport = bridge ? bridgeTransport(bridge) : createWsTransport();
  return {
    transport: bridge ? 'bridge' : 'websocket',
    async call(channel, input) {
      const result = await transport.send(channel, input);
      if (!result.ok) throw new ApiError(result.error);
      // Every value from main is parsed on arrival.
      return API_METHODS[channel].output.parse(result.value) as ApiOutput<typeof channel>;
    },
    on(event, listener) {
      return transport.subscribe(event, (raw) => {
        const parsed = API_EVENTS[event].safeParse(raw);
        if (parsed.success) listener(parsed.data as EventPayload<typeof event>);
        else console.warn(`Dropped a malformed ${event} event`, parsed.error);
      });
    },
    onConnectionChange: (listener) => transport.onConnectionChange(listener),
  };
}
