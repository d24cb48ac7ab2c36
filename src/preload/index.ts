// Exposes exactly the API contract's methods to the renderer; nothing generic.
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('amber', {
  health: () => ipcRenderer.invoke('app.health'),
});
