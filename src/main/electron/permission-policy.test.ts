import { expect, test } from 'vitest';
import { permissionPolicy } from './permission-policy.ts';

// Electron 45's permission names (Session.setPermissionRequestHandler).
const EVERY_PERMISSION = [
  'ar',
  'automatic-fullscreen',
  'background-fetch',
  'background-sync',
  'captured-surface-control',
  'clipboard-read',
  'clipboard-sanitized-write',
  'deprecated-sync-clipboard-read',
  'display-capture',
  'fileSystem',
  'fullscreen',
  'geolocation',
  'geolocation-approximate',
  'hand-tracking',
  'hid',
  'idle-detection',
  'keyboardLock',
  'local-fonts',
  'local-network',
  'local-network-access',
  'loopback-network',
  'media',
  'mediaKeySystem',
  'midi',
  'midiSysex',
  'nfc',
  'notifications',
  'openExternal',
  'payment-handler',
  'periodic-background-sync',
  'persistent-storage',
  'pointerLock',
  'screen-wake-lock',
  'sensors',
  'serial',
  'smart-card',
  'speaker-selection',
  'storage-access',
  'system-wake-lock',
  'top-level-storage-access',
  'usb',
  'vr',
  'web-app-installation',
  'web-printing',
  'window-management',
  'unknown',
];

test("every permission is refused, the app's own page included", () => {
  const granted = permissionPolicy('amber://app');
  for (const permission of EVERY_PERMISSION) {
    expect(granted(permission, 'amber://app/index.html'), permission).toBe(false);
    expect(granted(permission, 'https://evil.example/'), permission).toBe(false);
  }
});

test("a permission the table lists is granted to the app's origin only, never to another page", () => {
  const granted = permissionPolicy('amber://app', ['clipboard-sanitized-write']);
  expect(granted('clipboard-sanitized-write', 'amber://app/index.html')).toBe(true);
  expect(granted('clipboard-sanitized-write', 'amber://app')).toBe(true);
  expect(granted('clipboard-read', 'amber://app/index.html')).toBe(false);
  for (const other of ['amber://evil/index.html', 'amber://app.evil/', 'amber://app:1/', 'amber://u@app/', 'https://app/', 'file:///index.html', 'null', '']) {
    expect(granted('clipboard-sanitized-write', other), other).toBe(false);
  }
});

test("in development the dev server's origin is the app's", () => {
  const granted = permissionPolicy('http://localhost:5173', ['clipboard-sanitized-write']);
  expect(granted('clipboard-sanitized-write', 'http://localhost:5173/index.html')).toBe(true);
  expect(granted('clipboard-sanitized-write', 'http://localhost:5174/')).toBe(false);
  expect(granted('clipboard-sanitized-write', 'http://localhost:5173.evil.example/')).toBe(false);
});
