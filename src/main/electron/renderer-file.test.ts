// Which file an amber://app URL names, against a real renderer folder on disk with links in and out of it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rendererFile } from './renderer-file.ts';

let dir: string;
let renderer: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-renderer-file-')));
  renderer = join(dir, 'out', 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
  writeFileSync(join(renderer, 'assets', 'index-abc.js'), 'export {}');
  writeFileSync(join(renderer, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(renderer, 'assets', 'font.woff2'), 'w');
  writeFileSync(join(renderer, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(renderer, 'assets', 'blob.bin'), 'b');
  writeFileSync(join(renderer, 'assets', 'a b.js'), '');
  // Outside the renderer folder: what a hostile URL would like to read.
  writeFileSync(join(dir, 'secrets.json'), '{"key":"sk-1"}');
  mkdirSync(join(dir, 'out', 'main'));
  writeFileSync(join(dir, 'out', 'main', 'index.js'), '');
  symlinkSync(join(dir, 'secrets.json'), join(renderer, 'assets', 'leak.js'));
  symlinkSync(dir, join(renderer, 'up'));
  symlinkSync(join(renderer, 'assets', 'index-abc.js'), join(renderer, 'alias.js'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.each([
  ['amber://app/index.html', 'index.html', 'text/html; charset=utf-8'],
  ['amber://app/', 'index.html', 'text/html; charset=utf-8'],
  ['amber://app', 'index.html', 'text/html; charset=utf-8'],
  ['amber://app/index.html?session=1#end', 'index.html', 'text/html; charset=utf-8'],
  ['amber://app/index.html?x=../../secrets.json', 'index.html', 'text/html; charset=utf-8'],
  ['amber://app/assets/index-abc.js', 'assets/index-abc.js', 'text/javascript; charset=utf-8'],
  ['amber://app/assets/index-abc.css', 'assets/index-abc.css', 'text/css; charset=utf-8'],
  ['amber://app/assets/font.woff2', 'assets/font.woff2', 'font/woff2'],
  ['amber://app/assets/logo.svg', 'assets/logo.svg', 'image/svg+xml'],
  ['amber://app/assets/blob.bin', 'assets/blob.bin', 'application/octet-stream'],
  ['amber://app/assets/a%20b.js', 'assets/a b.js', 'text/javascript; charset=utf-8'],
  ['amber://app/assets/../index.html', 'index.html', 'text/html; charset=utf-8'],
  // A link that stays inside the folder is served as the file it leads to.
  ['amber://app/alias.js', 'assets/index-abc.js', 'text/javascript; charset=utf-8'],
])('%s is the renderer file %s, served as %s', (url, file, type) => {
  expect(rendererFile(url, renderer)).toEqual({ path: join(renderer, file), type });
});

test.each([
  // The URL parser folds these into the folder's root: they then name nothing there.
  'amber://app/../../secrets.json',
  'amber://app/%2e%2e/%2e%2e/secrets.json',
  'amber://app/%2E%2E/secrets.json',
  // Escaped separators and dots survive the parser: refused once decoded.
  'amber://app/..%2f..%2fsecrets.json',
  'amber://app/%2e%2e%2f%2e%2e%2fsecrets.json',
  'amber://app/assets%2f..%2f..%2fmain%2findex.js',
  'amber://app/..%5c..%5csecrets.json',
  'amber://app/assets%2F%2e%2e%2F%2e%2e%2Fsecrets.json',
  'amber://app/index.html%00.js',
  'amber://app/%E0%A4%A',
  // Absolute paths, as written or as a drive.
  'amber://app//etc/passwd',
  'amber://app/%2Fetc%2Fpasswd',
  'amber://app/C:/Windows/win.ini',
  'amber://app/c%3A/Windows/win.ini',
  // Links that lead out of the folder.
  'amber://app/assets/leak.js',
  'amber://app/up/secrets.json',
  'amber://app/up/out/main/index.js',
  // Other hosts, ports, credentials and schemes.
  'amber://evil/index.html',
  'amber://app.evil/index.html',
  'amber://app:8080/index.html',
  'amber://user:pw@app/index.html',
  'amber:///index.html',
  'file:///opt/Amber/out/renderer/index.html',
  'https://app/index.html',
  'not a url',
  // What is not a file.
  'amber://app/assets',
  'amber://app/assets/',
  'amber://app/missing.js',
])('%s names no renderer file', (url) => {
  expect(rendererFile(url, renderer)).toBeNull();
});

test('a renderer folder reached through a link still confines to where the folder really is', () => {
  const link = join(dir, 'renderer-link');
  symlinkSync(renderer, link);
  expect(rendererFile('amber://app/index.html', link)).toEqual({ path: join(renderer, 'index.html'), type: 'text/html; charset=utf-8' });
  expect(rendererFile('amber://app/up/secrets.json', link)).toBeNull();
});
