import type { Session } from 'electron';

/** The parts of an Electron Session the guards hook into (the shell passes session.defaultSession). */
export type GuardedSession = Pick<
  Session,
  | 'setPermissionRequestHandler'
  | 'setPermissionCheckHandler'
  | 'setDevicePermissionHandler'
  | 'setDisplayMediaRequestHandler'
  | 'setBluetoothPairingHandler'
  | 'on'
> & { webRequest: Pick<Session['webRequest'], 'onHeadersReceived'> };

/**
 * Shuts the doors a page could open through the session, for every window in it: permission requests and
 * checks are answered by `granted` (the permission policy: nothing, today), device access (USB, HID,
 * serial, Bluetooth) is refused and any device picker cancelled, screen capture is refused, and every
 * response carries the window's CSP (the dev server's pages included; `amber://` responses bring their own).
 * Electron is only a type here; the shell passes the real session.
 */
export function guardSession(session: GuardedSession, granted: (permission: string, requestingUrl: string) => boolean, csp: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(granted(permission, details.requestingUrl)));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => granted(permission, details.requestingUrl ?? requestingOrigin));
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.setBluetoothPairingHandler((_details, callback) => callback({ confirmed: false }));
  // A device picker with no listener picks for the page; with one, nothing is chosen until it answers.
  session.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.on('select-serial-port', (event, _ports, _contents, callback) => {
    event.preventDefault();
    callback('');
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}
