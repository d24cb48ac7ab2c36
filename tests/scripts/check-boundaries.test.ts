import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';

const script = resolve(import.meta.dirname, '../../scripts/check-boundaries.mjs');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-boundaries-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function check(): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

const chat = {
  'src/renderer/chat/index.ts': "export { ChatView } from './chat-view.ts';\n",
  'src/renderer/chat/chat-view.ts': "import { helper } from './helper.ts';\nexport const ChatView = helper;\n",
  'src/renderer/chat/helper.ts': 'export const helper = 1;\n',
};

test("a feature's files are imported from outside through its index.ts", () => {
  write({ ...chat, 'src/renderer/app/app.ts': "import { ChatView } from '../chat/index.ts';\nexport const App = ChatView;\n" });
  expect(check()).toMatchObject({ ok: true });
});

test("an import that reaches past a feature's index.ts is reported, type-only ones too", () => {
  write({
    ...chat,
    'src/renderer/app/app.ts':
      "import { helper } from '../chat/helper.ts';\nimport type { ChatView } from '../chat/chat-view.ts';\nexport const App = helper;\nexport type V = typeof ChatView;\n",
  });
  const r = check();
  expect(r.ok).toBe(false);
  expect(r.output).toContain("src/renderer/app/app.ts:1 imports '../chat/helper.ts' past the face of src/renderer/chat");
  expect(r.output).toContain("src/renderer/app/app.ts:2 imports '../chat/chat-view.ts' past the face of src/renderer/chat");
});

test('a nested feature is reached through its own face from its parent, and through the outer face from elsewhere', () => {
  write({
    'src/main/plugins/index.ts': "export { Registry } from './registries/index.ts';\n",
    'src/main/plugins/registries/index.ts': "export { Registry } from './registry.ts';\n",
    'src/main/plugins/registries/registry.ts': 'export const Registry = 1;\n',
    'src/main/plugins/service.ts': "import { Registry } from './registries/registry.ts';\nexport const s = Registry;\n",
    'src/main/app.ts': "import { Registry } from './plugins/registries/index.ts';\nexport const a = Registry;\n",
  });
  const r = check();
  expect(r.ok).toBe(false);
  expect(r.output).toContain("src/main/plugins/service.ts:1 imports './registries/registry.ts' past the face of src/main/plugins/registries");
  expect(r.output).toContain("src/main/app.ts:1 imports './plugins/registries/index.ts' past the face of src/main/plugins");
});

test('a listed older crossing is tolerated, and a listed one that no longer happens is reported', () => {
  write({ ...chat, 'src/renderer/app/app.ts': "import { helper } from '../chat/helper.ts';\nexport const App = helper;\n" });
  write({ 'scripts/face-exceptions.txt': '# count: 1\n# older crossings\nsrc/renderer/app/app.ts -> src/renderer/chat/helper.ts\n' });
  expect(check()).toMatchObject({ ok: true });
  write({ 'src/renderer/app/app.ts': "import { ChatView } from '../chat/index.ts';\nexport const App = ChatView;\n" });
  const r = check();
  expect(r.ok).toBe(false);
  expect(r.output).toContain("lists 'src/renderer/app/app.ts -> src/renderer/chat/helper.ts', which no longer happens");
});

test('the list of older crossings holds exactly the count its header allows', () => {
  write({
    ...chat,
    'src/renderer/app/app.ts': "import { helper } from '../chat/helper.ts';\nexport const App = helper;\n",
    'src/renderer/app/menu.ts': "import { helper } from '../chat/helper.ts';\nexport const Menu = helper;\n",
  });
  const listed = 'src/renderer/app/app.ts -> src/renderer/chat/helper.ts\nsrc/renderer/app/menu.ts -> src/renderer/chat/helper.ts\n';
  write({ 'scripts/face-exceptions.txt': `# count: 2\n${listed}` });
  expect(check()).toMatchObject({ ok: true });

  write({ 'scripts/face-exceptions.txt': `# count: 1\n${listed}` });
  const grown = check();
  expect(grown.ok).toBe(false);
  expect(grown.output).toContain('lists 2 crossings but its count allows 1');

  write({ 'scripts/face-exceptions.txt': `# count: 3\n${listed}` });
  const shrunk = check();
  expect(shrunk.ok).toBe(false);
  expect(shrunk.output).toContain('fewer than its count of 3: lower the count to 2');

  write({ 'scripts/face-exceptions.txt': `# older crossings\n${listed}` });
  const headless = check();
  expect(headless.ok).toBe(false);
  expect(headless.output).toContain("no valid '# count: N' header line: write '# count: 2'");
});

test('the plugin process takes values from the zod-free wire, and only types from the plugin schemas', () => {
  const shared = {
    'src/shared/plugins/index.ts': "export { Schema } from './schema.ts';\n",
    'src/shared/plugins/schema.ts': 'export const Schema = 1;\nexport type T = number;\n',
    'src/shared/plugin-wire/index.ts': 'export const FRAME = 1;\n',
  };
  write({
    ...shared,
    'src/workers/host/host.ts':
      "import type { T } from '../../shared/plugins/index.ts';\nimport { FRAME } from '../../shared/plugin-wire/index.ts';\nexport const h: T = FRAME;\n",
  });
  expect(check()).toMatchObject({ ok: true });
  write({ 'src/workers/host/host.ts': "import { Schema } from '../../shared/plugins/index.ts';\nexport const h = Schema;\n" });
  const r = check();
  expect(r.ok).toBe(false);
  expect(r.output).toContain("src/workers/host/host.ts:1: the plugin process loads no zod, but imports '../../shared/plugins/index.ts' at runtime");
});

test('the renderer still may not import main', () => {
  write({ 'src/main/secret.ts': 'export const s = 1;\n', 'src/renderer/app/app.ts': "import { s } from '../../main/secret.ts';\nexport const App = s;\n" });
  const r = check();
  expect(r.ok).toBe(false);
  expect(r.output).toContain('renderer may not import main');
});
