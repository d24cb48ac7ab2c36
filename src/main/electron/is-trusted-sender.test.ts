// The IPC sender check with fake events and contents: Electron is only a type in the module under test.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { expect, test } from 'vitest';
import { appUrlCheck } from './app-url-check.ts';
import { isTrustedSender } from './is-trusted-sender.ts';

const appPage = 'amber://app/index.html';
const isAppUrl = appUrlCheck();
const appContents = { id: 1 } as unknown as WebContents;
const otherContents = { id: 2 } as unknown as WebContents;

type Frame = { url: string; parent: Frame | null };
const top = (url: string): Frame => ({ url, parent: null });
const event = (sender: WebContents, senderFrame: Frame | null) => ({ sender, senderFrame }) as unknown as Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

test("a message from the main window's top frame showing the app's page is trusted, with a query or fragment too", () => {
  expect(isTrustedSender(event(appContents, top(appPage)), appContents, isAppUrl)).toBe(true);
  expect(isTrustedSender(event(appContents, top(`${appPage}?session=1#end`)), appContents, isAppUrl)).toBe(true);
});

test.each([
  ['another window', event(otherContents, top(appPage)), appContents],
  ['an iframe inside the app page', event(appContents, { url: appPage, parent: top(appPage) }), appContents],
  ['the main window after it navigated away', event(appContents, top('https://evil.example/')), appContents],
  ['the built page loaded as a local file', event(appContents, top('file:///opt/Amber/resources/app/out/renderer/index.html')), appContents],
  ["another page of the app's scheme", event(appContents, top('amber://app/index.html.evil.html')), appContents],
  ['another host of the scheme', event(appContents, top('amber://evil/index.html')), appContents],
  ['a host that merely starts like the app', event(appContents, top('amber://app.evil/index.html')), appContents],
  ['a page with credentials in its URL', event(appContents, top('amber://u@app/index.html')), appContents],
  ['a frame that is already gone', event(appContents, null), appContents],
  ['any sender once the window is closed', event(appContents, top(appPage)), null],
])('a message from %s is refused', (_from, e, contents) => {
  expect(isTrustedSender(e, contents, isAppUrl)).toBe(false);
});

test('in development only pages of the dev server origin are the app, not a host that merely starts with it', () => {
  const dev = appUrlCheck({ devUrl: 'http://localhost:5173' });
  expect(dev('http://localhost:5173/')).toBe(true);
  expect(dev('http://localhost:5173/index.html?x=1')).toBe(true);
  expect(dev('http://localhost:5173.evil.example/')).toBe(false);
  expect(dev('http://localhost:51730/')).toBe(false);
  expect(dev('http://user@localhost:5173@evil.example/')).toBe(false);
  expect(dev('javascript:alert(1)//http://localhost:5173')).toBe(false);
  expect(dev(appPage)).toBe(false);
});
