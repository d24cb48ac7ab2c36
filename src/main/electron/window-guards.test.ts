// guardWindow with a fake WebContents that records what the guards hook in, then drives each hook as
// Electron would: Electron is only a type in the module under test.
import { expect, test } from 'vitest';
import { appUrlCheck } from './app-url-check.ts';
import { type GuardedContents, guardWindow } from './window-guards.ts';
import { WINDOW_CSP } from './window-csp.ts';

const APP = 'amber://app/index.html';

function fakeWindow() {
  const listeners = new Map<string, (event: { preventDefault(): void }, ...args: unknown[]) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  const contents = {
    setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
    on: (name: string, l: (event: { preventDefault(): void }, ...args: unknown[]) => void) => void listeners.set(name, l),
  } as unknown as GuardedContents;
  const opened: string[] = [];
  guardWindow(contents, appUrlCheck(), async (url) => void opened.push(url));
  /** Emits a navigation-like event; returns whether the guard prevented it. */
  const emit = (name: string, ...args: unknown[]): boolean => {
    let prevented = false;
    listeners.get(name)!({ preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  };
  return { opened, emit, open: (url: string) => openHandler!({ url }) };
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
  // The built page as a file is not the app any more, nor is another page of the app's scheme.
  expect(w.emit('will-navigate', 'file:///opt/Amber/out/renderer/index.html')).toBe(true);
  expect(w.emit('will-navigate', 'amber://app/assets/index.js')).toBe(true);
  expect(w.emit('will-navigate', 'amber://evil/index.html')).toBe(true);
  expect(w.opened).toEqual(['https://example.com/']);
});

test('webviews are never attached and a Bluetooth device picker is cancelled, choosing nothing', () => {
  const w = fakeWindow();
  expect(w.emit('will-attach-webview')).toBe(true);
  let chosen: string | null = null;
  expect(w.emit('select-bluetooth-device', [{ deviceId: 'b1', deviceName: 'Headset' }], (id: string) => (chosen = id))).toBe(true);
  expect(chosen).toBe('');
});

test("the window's CSP allows only its own origin's scripts and no plugins", () => {
  expect(WINDOW_CSP).toMatch(/default-src 'self';/);
  expect(WINDOW_CSP).toMatch(/script-src 'self';/);
  expect(WINDOW_CSP).toMatch(/object-src 'none'/);
  expect(WINDOW_CSP).not.toMatch(/unsafe-eval|\*/);
});
