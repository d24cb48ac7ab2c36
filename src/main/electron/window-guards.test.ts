// guardWindow with a fake WebContents that records what the guards hook in, then drives each hook as
// Electron would: Electron is only a type in the module under test.
import { expect, test } from 'vitest';
import { type GuardedContents, guardWindow, WINDOW_CSP } from './window-guards.ts';

const APP = 'file:///opt/Amber/out/renderer/index.html';

function fakeWindow() {
  const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  let permission: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
  let headers: ((details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: Record<string, string[]> }) => void) => void) | null = null;
  const contents = {
    setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
    on: (name: string, l: (event: { preventDefault(): void }, url: string) => void) => void listeners.set(name, l),
    session: {
      setPermissionRequestHandler: (h: typeof permission) => void (permission = h),
      webRequest: { onHeadersReceived: (h: typeof headers) => void (headers = h) },
    },
  } as unknown as GuardedContents;
  const opened: string[] = [];
  guardWindow(contents, (url) => url.split(/[?#]/)[0] === APP, async (url) => void opened.push(url));
  /** Emits a navigation-like event; returns whether the guard prevented it. */
  const emit = (name: string, url = ''): boolean => {
    let prevented = false;
    listeners.get(name)!({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return {
    opened,
    emit,
    open: (url: string) => openHandler!({ url }),
    askPermission: (name: string) => {
      let granted: boolean | null = null;
      permission!(null, name, (g) => (granted = g));
      return granted;
    },
    respond: (responseHeaders: Record<string, string[]>) => {
      let out: Record<string, string[]> | undefined;
      headers!({ responseHeaders }, (r) => (out = r.responseHeaders));
      return out;
    },
  };
}

test('a new window is never opened: a web link goes to the OS browser, anything else nowhere', () => {
  const w = fakeWindow();
  for (const url of ['https://example.com/docs', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@example.com/', APP]) {
    expect(w.open(url)).toEqual({ action: 'deny' });
  }
  expect(w.opened).toEqual(['https://example.com/docs']);
});

test("navigating to the app's own page is allowed; any other navigation is stopped, and only web links are handed to the OS browser", () => {
  const w = fakeWindow();
  expect(w.emit('will-navigate', `${APP}#settings`)).toBe(false);
  expect(w.emit('will-navigate', 'https://example.com/')).toBe(true);
  expect(w.emit('will-navigate', 'file:///home/user/.ssh/id_rsa')).toBe(true);
  expect(w.emit('will-navigate', 'data:text/html,<script>alert(1)</script>')).toBe(true);
  expect(w.opened).toEqual(['https://example.com/']);
});

test('webviews are never attached and every permission request is denied', () => {
  const w = fakeWindow();
  expect(w.emit('will-attach-webview')).toBe(true);
  for (const name of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) expect(w.askPermission(name)).toBe(false);
});

test("every response carries the app's strict CSP, replacing one the response brought", () => {
  const w = fakeWindow();
  const out = w.respond({ 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src *; script-src 'unsafe-eval' *"] });
  expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [WINDOW_CSP] });
  expect(WINDOW_CSP).toMatch(/script-src 'self';/);
  expect(WINDOW_CSP).toMatch(/object-src 'none'/);
});
