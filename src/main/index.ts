// The Electron shell: app lifecycle, the window, and IPC. The core is the same one the headless shell runs.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, type IpcMainInvokeEvent, safeStorage, shell, utilityProcess } from 'electron';
import { type ApiRouter, createApiRouter } from './api/index.ts';
import { type App, createApp } from './app.ts';
import { FileSecretStore } from './providers/index.ts';
import { serveIpcApi } from './electron/ipc-api.ts';
import { safeStorageCodec } from './electron/safe-storage-codec.ts';
import { createUtilityLauncher } from './electron/utility-launcher.ts';
import { guardWindow } from './electron/window-guards.ts';

let core: App | null = null;
let api: ApiRouter | null = null;
let mainWindow: BrowserWindow | null = null;

const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const devUrl = process.env.ELECTRON_RENDERER_URL;

function isAppUrl(url: string): boolean {
  if (devUrl) return url.startsWith(devUrl);
  return url.split(/[?#]/)[0] === pathToFileURL(rendererFile).href;
}

/** Every IPC message must come from the main window's own top frame showing the app's page. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  // The top frame (no parent: never an iframe) of our own window, showing our own page.
  return mainWindow !== null && event.sender === mainWindow.webContents && frame !== null && frame.parent === null && isAppUrl(frame.url);
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Amber',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  guardWindow(win.webContents, isAppUrl);
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(rendererFile);
  return win;
}

// One app instance per data dir: a second launch focuses the first window and exits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  void app.whenReady().then(() => {
    const dataDir = process.env.AMBER_DATA_DIR ?? app.getPath('userData');
    core = createApp({
      dataDir,
      launchPlugin: createUtilityLauncher(utilityProcess),
      secrets: new FileSecretStore(join(dataDir, 'secrets.json'), { codec: safeStorageCodec(safeStorage) }),
      // The app's code and its resources are never a workspace.
      installDirs: [app.getAppPath(), process.resourcesPath],
    });
    api = createApiRouter(core, {
      // The user plugin folder, opened in the system's file manager ('' from openPath means it opened).
      openPath: async (folder) => {
        mkdirSync(folder, { recursive: true });
        return (await shell.openPath(folder)) === '';
      },
      // A conversation's workspace folder, chosen with the system's picker (main checks it like any other).
      pickFolder: async (defaultPath) => {
        const options: Electron.OpenDialogOptions = { title: 'Choose the folder this conversation works in', defaultPath, properties: ['openDirectory', 'createDirectory'] };
        const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    });
    serveIpcApi(api, isTrustedSender, () => mainWindow?.webContents ?? null);
    mainWindow = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Quitting waits for the core: runs stopped, plugin processes ended, the database closed.
  let disposing = false;
  app.on('will-quit', (event) => {
    if (disposing || !core) return;
    event.preventDefault();
    disposing = true;
    api?.dispose();
    void core.dispose().finally(() => app.exit(0));
  });
}
