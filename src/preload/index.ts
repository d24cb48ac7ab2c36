// Exposes exactly the API contract to the renderer: one function per channel, one subscribe function per
// event, built from the contract's own lists. Nothing generic (no invoke(channel)) crosses the bridge.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
// Only the name lists: the sandboxed preload cannot load modules, and these need none.
import { CHANNEL_NAMES, EVENT_NAME_LIST, eventChannel, splitChannel } from '../shared/api/api-names.ts';

const bridge: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
for (const channel of CHANNEL_NAMES) {
  const [domain, verb] = splitChannel(channel);
  bridge[domain] ??= {};
  bridge[domain][verb] = (input: unknown) => ipcRenderer.invoke(channel, input);
}

const on: Record<string, (listener: (payload: unknown) => void) => () => void> = {};
for (const event of EVENT_NAME_LIST) {
  on[event] = (listener) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(eventChannel(event), wrapped);
    return () => {
      ipcRenderer.removeListener(eventChannel(event), wrapped);
    };
  };
}

contextBridge.exposeInMainWorld('amber', { ...bridge, on });
