import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { editTool, findTool, grepTool, lsTool, readTool, WORKSPACE_TOOLS as ALL_TOOLS, type WorkspaceToolContext, writeTool } from './index.ts';

// The tools that take paths as arguments; the shell tool's paths live in its command line, which the
// policy in main judges before it runs (see src/main/policy/shell-classify.ts).
const WORKSPACE_TOOLS = ALL_TOOLS.filter((tool) => tool.spec.shell !== true);

let base: string;
let root: string;
let outside: string;
let data: string;
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');
const ctx = () => ({ root, denied: [data] });
/** Arguments every tool accepts: each reads the ones it needs. */
const argsFor = (path: string) => ({ path, pattern: 'TODO', content: 'pwned', oldText: 'TODO', newText: 'DONE' });

/** Every file and folder under a folder with its content, to show nothing there changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        out[p] = '/';
        walk(p);
      } else out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

async function everyTool(path: string, c: WorkspaceToolContext = ctx()): Promise<Array<[string, ToolOutput]>> {
  const results: Array<[string, ToolOutput]> = [];
  for (const tool of WORKSPACE_TOOLS) results.push([tool.spec.name, await tool.execute(argsFor(path), c)]);
  return results;
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-confine-'));
  root = join(base, 'ws');
  outside = join(base, 'ws2');
  data = join(root, '.amber-data');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(outside, 'sub'), { recursive: true });
  mkdirSync(data);
  writeFileSync(join(root, 'src', 'main.ts'), 'const a = 1;\n// TODO: inside\n');
  writeFileSync(join(outside, 'secret.txt'), 'TODO secret\n');
  writeFileSync(join(outside, 'sub', 'deeper.txt'), 'TODO deeper secret\n');
  writeFileSync(join(data, 'secrets.json'), '{"TODO":"api key"}\n');
  // Links that leave: file and folder, relative and absolute.
  symlinkSync('../ws2/secret.txt', join(root, 'out-file'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'out-file-abs'));
  symlinkSync('../ws2', join(root, 'out-dir'));
  symlinkSync(outside, join(root, 'out-dir-abs'));
  // A chain inside → inside → outside.
  symlinkSync('c2', join(root, 'c1'));
  symlinkSync(join(root, 'c3'), join(root, 'c2'));
  symlinkSync('../ws2', join(root, 'c3'));
  // A dangling link whose target would be created outside.
  symlinkSync('../ws2/created.txt', join(root, 'dangling-out'));
  // Links that stay inside.
  symlinkSync('src/main.ts', join(root, 'in-file'));
  symlinkSync(join(root, 'src'), join(root, 'in-dir'));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('symbolic links that leave the workspace', () => {
  const escapes = [
    'out-file',
    'out-file-abs',
    'out-dir',
    'out-dir-abs',
    'out-dir/secret.txt',
    'out-dir-abs/sub/deeper.txt',
    'c1',
    'c1/secret.txt',
    'dangling-out',
    'out-dir/new.txt',
    'out-dir/newsub/deeper/x.txt',
  ];

  test.each(WORKSPACE_TOOLS.map((tool) => [tool.spec.name, tool] as const))(
    '%s refuses every path through a link out of the workspace, naming the path, and nothing outside changes',
    async (name, tool) => {
      const before = snapshot(outside);
      for (const path of [...escapes, join(root, 'out-dir', 'secret.txt')]) {
        const out = await tool.execute(argsFor(path), ctx());
        expect(out.isError, `${name} ${path}`).toBe(true);
        expect(text(out), `${name} ${path}`).toContain(`The path "${path}" leads out of the workspace through a symbolic link`);
      }
      expect(snapshot(outside)).toEqual(before);
      expect(existsSync(join(outside, 'created.txt'))).toBe(false);
      expect(existsSync(join(outside, 'newsub'))).toBe(false);
    },
  );

  test('write through a dangling link, or through a link as an intermediate folder of a new path, creates nothing outside', async () => {
    for (const path of ['dangling-out', 'out-dir/newsub/deeper/x.txt', 'c1/sub/new.txt']) {
      const out = await writeTool.execute({ path, content: 'pwned' }, ctx());
      expect(text(out), path).toMatch(/leads out of the workspace through a symbolic link/);
    }
    expect(existsSync(join(outside, 'created.txt'))).toBe(false);
    expect(existsSync(join(outside, 'newsub'))).toBe(false);
    expect(readdirSync(join(outside, 'sub'))).toEqual(['deeper.txt']);
  });

  test('ls lists links marked with @ and never follows them', async () => {
    const out = text(await lsTool.execute({}, ctx()));
    expect(out).toBe('c1@\nc2@\nc3@\ndangling-out@\nin-dir@\nin-file@\nout-dir-abs@\nout-dir@\nout-file-abs@\nout-file@\nsrc/');
    expect(out).not.toContain('secret');
  });

  test('find never descends through a link, so nothing behind one is listed', async () => {
    const out = text(await findTool.execute({ pattern: '*' }, ctx()));
    expect(out).not.toMatch(/secret|deeper/);
    expect(out.split('\n')).toContain('src/main.ts');
    expect(text(await findTool.execute({ pattern: '*.txt' }, ctx()))).toMatch(/No files match/);
  });

  test('a grep walk never reads through a link, inside or out', async () => {
    expect(text(await grepTool.execute({ pattern: 'TODO' }, ctx()))).toBe('src/main.ts:2: // TODO: inside');
    expect(text(await grepTool.execute({ pattern: 'secret' }, ctx()))).toMatch(/^No matches/);
  });

  test('a loop of links is refused with a sentence by every tool', async () => {
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    for (const [name, out] of await everyTool('loop-a/x.txt')) {
      expect(out.isError, name).toBe(true);
      expect(text(out), name).toMatch(/loop of symbolic links|leads out of the workspace/);
    }
  });
});

describe('symbolic links that stay inside the workspace', () => {
  test('read, ls, find and grep follow a named link that stays inside', async () => {
    expect(text(await readTool.execute({ path: 'in-file' }, ctx()))).toBe('const a = 1;\n// TODO: inside');
    expect(text(await readTool.execute({ path: 'in-dir/main.ts' }, ctx()))).toBe('const a = 1;\n// TODO: inside');
    expect(text(await lsTool.execute({ path: 'in-dir' }, ctx()))).toBe('main.ts');
    expect(text(await findTool.execute({ pattern: '*.ts', path: 'in-dir' }, ctx()))).toBe('src/main.ts');
    expect(text(await grepTool.execute({ pattern: 'inside', path: 'in-dir' }, ctx()))).toBe('src/main.ts:2: // TODO: inside');
    expect(text(await grepTool.execute({ pattern: 'inside', path: 'in-file' }, ctx()))).toBe('src/main.ts:2: // TODO: inside');
  });

  test('write and edit through an inside link change the file it points to and keep the link', async () => {
    expect(text(await editTool.execute({ path: 'in-file', oldText: 'TODO', newText: 'DONE' }, ctx()))).toBe('Replaced 1 occurrence in in-file.');
    expect(readFileSync(join(root, 'src', 'main.ts'), 'utf8')).toBe('const a = 1;\n// DONE: inside\n');
    expect(text(await writeTool.execute({ path: 'in-dir/new/x.txt', content: 'x' }, ctx()))).toBe('Created in-dir/new/x.txt (1 bytes).');
    expect(readFileSync(join(root, 'src', 'new', 'x.txt'), 'utf8')).toBe('x');
    expect(text(await writeTool.execute({ path: 'in-file', content: 'short' }, ctx()))).toBe('Overwrote in-file (5 bytes).');
    expect(readFileSync(join(root, 'src', 'main.ts'), 'utf8')).toBe('short');
  });

  test('a workspace root reached through a link is confined to its real folder', async () => {
    symlinkSync(root, join(base, 'ws-alias'));
    const viaAlias = { root: join(base, 'ws-alias'), denied: [data] };
    expect(text(await readTool.execute({ path: 'src/main.ts' }, viaAlias))).toBe('const a = 1;\n// TODO: inside');
    expect(text(await readTool.execute({ path: join(root, 'src', 'main.ts') }, viaAlias))).toBe('const a = 1;\n// TODO: inside');
    for (const [name, out] of await everyTool('out-dir/secret.txt', viaAlias)) expect(text(out), name).toMatch(/leads out of the workspace/);
  });
});

test('a workspace folder that does not exist is refused with a sentence by every tool', async () => {
  const missing = { root: join(base, 'gone') };
  for (const [name, out] of await everyTool('x.txt', missing)) {
    expect(text(out), name).toBe(`The workspace folder ${join(base, 'gone')} does not exist or cannot be opened; choose an existing folder as the workspace.`);
  }
  expect(existsSync(join(base, 'gone'))).toBe(false);
});

describe('case variants', () => {
  beforeEach(() => {
    writeFileSync(join(root, 'README.md'), 'upper TODO\n');
    writeFileSync(join(root, 'readme.md'), 'lower TODO\n');
    mkdirSync(join(base, 'WS'));
    writeFileSync(join(base, 'WS', 'secret.txt'), 'TODO case secret\n');
  });

  test('README.md and readme.md are different files and every tool reaches each as itself', async () => {
    expect(text(await readTool.execute({ path: 'README.md' }, ctx()))).toBe('upper TODO');
    expect(text(await readTool.execute({ path: 'readme.md' }, ctx()))).toBe('lower TODO');
    expect(text(await grepTool.execute({ pattern: 'TODO', glob: '*.md' }, ctx()))).toBe('README.md:1: upper TODO\nreadme.md:1: lower TODO');
    expect(text(await findTool.execute({ pattern: '*.md' }, ctx()))).toBe('README.md\nreadme.md');
    await editTool.execute({ path: 'README.md', oldText: 'upper', newText: 'UPPER' }, ctx());
    await writeTool.execute({ path: 'readme.md', content: 'written lower' }, ctx());
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('UPPER TODO\n');
    expect(readFileSync(join(root, 'readme.md'), 'utf8')).toBe('written lower');
    expect(text(await lsTool.execute({}, ctx())).split('\n')).toEqual(expect.arrayContaining(['README.md', 'readme.md']));
  });

  test('a case variant of the root folder is outside the workspace for every tool', async () => {
    const before = snapshot(join(base, 'WS'));
    for (const path of [join(base, 'WS', 'secret.txt'), join(base, 'WS'), '../WS/secret.txt']) {
      for (const [name, out] of await everyTool(path)) {
        expect(out.isError, `${name} ${path}`).toBe(true);
        expect(text(out), `${name} ${path}`).toMatch(/outside the workspace|leaves the workspace/);
      }
    }
    expect(snapshot(join(base, 'WS'))).toEqual(before);
  });
});

describe("Amber's data folder", () => {
  test.each(WORKSPACE_TOOLS.map((tool) => [tool.spec.name, tool] as const))(
    '%s refuses a path inside the data folder, by relative, absolute or linked path, and nothing there changes',
    async (name, tool) => {
      symlinkSync('.amber-data', join(root, 'data-link'));
      symlinkSync(join(data, 'secrets.json'), join(root, 'secrets-link'));
      const before = snapshot(data);
      const paths = [
        '.amber-data',
        '.amber-data/secrets.json',
        join(data, 'secrets.json'),
        'src/../.amber-data/secrets.json',
        'data-link',
        'data-link/secrets.json',
        'secrets-link',
        '.amber-data/new.txt',
        'data-link/new/x.txt',
      ];
      for (const path of paths) {
        const out = await tool.execute(argsFor(path), ctx());
        expect(out.isError, `${name} ${path}`).toBe(true);
        expect(text(out), `${name} ${path}`).toBe(`The path "${path}" is inside Amber's data folder, which tools never touch.`);
      }
      expect(snapshot(data)).toEqual(before);
    },
  );

  test('ls, find and grep skip the data folder silently', async () => {
    const listed = text(await lsTool.execute({}, ctx()));
    expect(listed).not.toContain('.amber-data');
    expect(listed).toContain('src/');
    const found = text(await findTool.execute({ pattern: '*' }, ctx()));
    expect(found).not.toMatch(/amber-data|secrets/);
    expect(found.split('\n')).toContain('src/main.ts');
    expect(text(await grepTool.execute({ pattern: 'api key' }, ctx()))).toMatch(/^No matches/);
    expect(text(await grepTool.execute({ pattern: 'TODO' }, ctx()))).toBe('src/main.ts:2: // TODO: inside');
  });

  test('a data folder named through a link is refused by its real path too', async () => {
    symlinkSync(data, join(base, 'data-alias'));
    const aliased = { root, denied: [join(base, 'data-alias')] };
    for (const [name, out] of await everyTool('.amber-data/secrets.json', aliased)) expect(text(out), name).toMatch(/inside Amber's data folder/);
    expect(text(await lsTool.execute({}, aliased))).not.toContain('.amber-data');
  });

  test('a workspace inside the data folder is refused whole', async () => {
    const inData = { root: data, denied: [data] };
    expect(text(await lsTool.execute({}, { root: data }))).toBe('secrets.json');
    for (const [name, out] of await everyTool('.', inData)) expect(text(out), name).toMatch(/inside Amber's data folder/);
  });
});

test('write and edit refuse a file whose other name (a hard link) is outside the workspace, and change nothing there', async () => {
  linkSync(join(outside, 'secret.txt'), join(root, 'src', 'linked.txt'));
  const before = snapshot(outside);
  for (const tool of [writeTool, editTool]) {
    const out = await tool.execute(argsFor('src/linked.txt'), ctx());
    expect(out.isError, tool.spec.name).toBe(true);
    expect(text(out)).toMatch(/src\/linked\.txt has 2 names \(hard links\)/);
  }
  expect(snapshot(outside)).toEqual(before);
  // Reading it is allowed: it is a file in the workspace, read as it is.
  expect(text(await readTool.execute({ path: 'src/linked.txt' }, ctx()))).toContain('TODO secret');
});
