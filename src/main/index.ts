// The Electron shell: app lifecycle, the window, and IPC. The core is the same one the headless shell runs.
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { type App, createApp } from './app.ts';

let core: App | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    title: 'Amber',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  // Navigation and new windows are blocked; http(s) links open in the OS browser.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return win;
}

// One app instance per data dir: a second launch focuses the first window and exits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  void app.whenReady().then(() => {
    core = createApp({ dataDir: process.env.AMBER_DATA_DIR ?? app.getPath('userData') });
    ipcMain.handle('app.health', (event) => {
      if (event.senderFrame?.url && !event.senderFrame.url.startsWith('file:') && !process.env.ELECTRON_RENDERER_URL) {
        throw new Error('Refused a request from an unexpected sender.');
      }
      return core?.health();
    });
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void core?.dispose();
  });
}
