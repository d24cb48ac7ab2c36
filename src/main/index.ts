// The Electron shell: app lifecycle, the window, and IPC. The core is the same one the headless shell runs.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Notification, protocol, safeStorage, session, shell, utilityProcess } from 'electron';
import { type ApiRouter, createApiRouter } from './api/index.ts';
import { type App, createApp } from './app.ts';
import { FileSecretStore } from './providers/index.ts';
import { APP_ORIGIN } from './electron/app-origin.ts';
import { appProtocolHandler } from './electron/app-protocol-handler.ts';
import { appUrlCheck } from './electron/app-url-check.ts';
import { serveIpcApi } from './electron/ipc-api.ts';
import { isTrustedSender } from './electron/is-trusted-sender.ts';
import { permissionPolicy } from './electron/permission-policy.ts';
import { safeStorageCodec } from './electron/safe-storage-codec.ts';
import { createUtilityLauncher } from './electron/utility-launcher.ts';
import { guardSession } from './electron/session-guards.ts';
import { guardWindow } from './electron/window-guards.ts';
import { runNotifier } from './electron/run-notifier.ts';
import { WINDOW_CSP } from './electron/window-csp.ts';

let core: App | null = null;
let api: ApiRouter | null = null;
let mainWindow: BrowserWindow | null = null;

const rendererDir = join(import.meta.dirname, '../renderer');
const devUrl = process.env.ELECTRON_RENDERER_URL;

const isAppUrl = appUrlCheck({ devUrl });

// The page is served from the app's own scheme (amber://app), never file://; it must be registered before ready.
protocol.registerSchemesAsPrivileged([{ scheme: APP_ORIGIN.scheme, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

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
  guardWindow(win.webContents, isAppUrl, (url) => shell.openExternal(url));
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadURL(APP_ORIGIN.page);
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
    // Before any window: no permission, device or screen capture for any page, and the CSP on every response.
    guardSession(session.defaultSession, permissionPolicy(devUrl ?? APP_ORIGIN.origin), WINDOW_CSP);
    protocol.handle(APP_ORIGIN.scheme, appProtocolHandler(rendererDir));
    const dataDir = process.env.AMBER_DATA_DIR ?? app.getPath('userData');
    core = createApp({
      dataDir,
      launchPlugin: createUtilityLauncher(utilityProcess),
      secrets: new FileSecretStore(join(dataDir, 'secrets.json'), { codec: safeStorageCodec(safeStorage) }),
      // The app's code and its resources are never a workspace.
      installDirs: [app.getAppPath(), process.resourcesPath],
      // A scheduled run that ends is a system notification too; a click brings the window forward.
      scheduler: {
        notify: runNotifier(({ title, body }) => {
          if (!Notification.isSupported()) return;
          const notice = new Notification({ title, body });
          notice.on('click', () => {
            if (mainWindow?.isMinimized()) mainWindow.restore();
            mainWindow?.focus();
          });
          notice.show();
        }),
      },
    });
    api = createApiRouter(core, {
      // The user plugin folder, opened in the system's file manager ('' from openPath means it opened).
      openPath: async (folder) => {
        mkdirSync(folder, { recursive: true });
        return (await shell.openPath(folder)) === '';
      },
      // A conversation's workspace folder, chosen with the system's picker (main checks it like any other).
      pickFolder: async (defaultPath) => {
        const options: Electron.OpenDialogOptions = {
          title: 'Choose the folder this conversation works in',
          defaultPath,
          properties: ['openDirectory', 'createDirectory'],
        };
        const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    });
    // Every IPC message must come from the main window's own top frame showing the app's page.
    serveIpcApi(
      ipcMain,
      api,
      (event) => isTrustedSender(event, mainWindow?.webContents ?? null, isAppUrl),
      () => mainWindow?.webContents ?? null,
    );
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
