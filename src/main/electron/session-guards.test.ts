// guardSession with a stand-in Session that records each handler, then drives them as Electron would:
// Electron is only a type in the module under test.
import { expect, test } from 'vitest';
import { permissionPolicy } from './permission-policy.ts';
import { type GuardedSession, guardSession } from './session-guards.ts';

type Fn = (...args: never[]) => unknown;

function fakeSession(granted = permissionPolicy('amber://app')) {
  const handlers = new Map<string, Fn>();
  const listeners = new Map<string, Fn>();
  const session = {
    setPermissionRequestHandler: (h: Fn) => void handlers.set('request', h),
    setPermissionCheckHandler: (h: Fn) => void handlers.set('check', h),
    setDevicePermissionHandler: (h: Fn) => void handlers.set('device', h),
    setDisplayMediaRequestHandler: (h: Fn) => void handlers.set('display', h),
    setBluetoothPairingHandler: (h: Fn) => void handlers.set('pairing', h),
    on: (name: string, l: Fn) => void listeners.set(name, l),
    webRequest: { onHeadersReceived: (h: Fn) => void handlers.set('headers', h) },
  } as unknown as GuardedSession;
  guardSession(session, granted, "default-src 'self'");
  const call = (name: string, ...args: unknown[]) => (handlers.get(name) as (...a: unknown[]) => unknown)(...args);
  /** Emits a device-picker event; returns whether it was prevented and what the callback got. */
  const pick = (name: string, ...middle: unknown[]) => {
    let prevented = false;
    let answered: unknown[] | null = null;
    (listeners.get(name) as (...a: unknown[]) => void)({ preventDefault: () => (prevented = true) }, ...middle, (...a: unknown[]) => (answered = a));
    return { prevented, answered };
  };
  return { call, pick, handlers, listeners };
}

test('every permission request and check is refused, for the app page and for any other', () => {
  const s = fakeSession();
  for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'hid']) {
    for (const requestingUrl of ['amber://app/index.html', 'https://evil.example/']) {
      let granted: boolean | null = null;
      s.call('request', null, permission, (g: boolean) => (granted = g), { requestingUrl });
      expect(granted, permission).toBe(false);
      expect(s.call('check', null, permission, 'amber://app', { requestingUrl }), permission).toBe(false);
    }
  }
});

test('the session asks the permission policy it is given, with the page that asked', () => {
  const s = fakeSession(permissionPolicy('amber://app', ['clipboard-sanitized-write']));
  let granted: boolean | null = null;
  s.call('request', null, 'clipboard-sanitized-write', (g: boolean) => (granted = g), { requestingUrl: 'amber://app/index.html' });
  expect(granted).toBe(true);
  s.call('request', null, 'clipboard-sanitized-write', (g: boolean) => (granted = g), { requestingUrl: 'https://evil.example/' });
  expect(granted).toBe(false);
  // A check without a page URL is judged by the requesting origin.
  expect(s.call('check', null, 'clipboard-sanitized-write', 'amber://app', {})).toBe(true);
  expect(s.call('check', null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
});

test('devices and screen capture are refused, and Bluetooth pairing is not confirmed', () => {
  const s = fakeSession();
  expect(s.call('device', { deviceType: 'usb', origin: 'amber://app', device: {} })).toBe(false);
  let streams: unknown = 'unset';
  s.call('display', { frame: null }, (given: unknown) => (streams = given));
  expect(streams).toBeNull();
  let pairing: unknown = null;
  s.call('pairing', { deviceId: 'x', pairingKind: 'confirm' }, (response: unknown) => (pairing = response));
  expect(pairing).toEqual({ confirmed: false });
});

test('USB, HID and serial pickers are taken over and cancelled: nothing is chosen for the page', () => {
  const s = fakeSession();
  const devices = { deviceList: [{ deviceId: 'd1' }], frame: null };
  expect(s.pick('select-usb-device', devices)).toEqual({ prevented: true, answered: [] });
  expect(s.pick('select-hid-device', devices)).toEqual({ prevented: true, answered: [] });
  expect(s.pick('select-serial-port', [{ portId: 'p1' }], null)).toEqual({ prevented: true, answered: [''] });
});

test('every response carries the CSP, replacing one the response brought', () => {
  const s = fakeSession();
  let out: unknown;
  s.call(
    'headers',
    { responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': ['default-src *'] } },
    (r: { responseHeaders: unknown }) => (out = r.responseHeaders),
  );
  expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src 'self'"] });
});
