// Exposes exactly the API contract to the renderer: one function per channel, one subscribe function per
// event, built from the contract's own lists. Nothing generic (no invoke(channel)) crosses the bridge.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNELS, EVENT_NAMES, splitChannel } from '../shared/api/index.ts';

const EVENT_CHANNEL_PREFIX = 'event:';

const bridge: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
for (const channel of CHANNELS) {
  const [domain, verb] = splitChannel(channel);
  bridge[domain] ??= {};
  bridge[domain][verb] = (input: unknown) => ipcRenderer.invoke(channel, input);
}

const on: Record<string, (listener: (payload: unknown) => void) => () => void> = {};
for (const event of EVENT_NAMES) {
  on[event] = (listener) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL_PREFIX + event, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL_PREFIX + event, wrapped);
    };
  };
}

contextBridge.exposeInMainWorld('amber', { ...bridge, on });
