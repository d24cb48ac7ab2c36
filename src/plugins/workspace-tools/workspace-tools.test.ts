import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ToolSpec, type ToolOutput } from '../../shared/tools/index.ts';
import { confinePath, editTool, findTool, grepTool, lsTool, readTool, resolveWorkspaceRoot, truncateOutput, WORKSPACE_TOOLS, writeTool } from './index.ts';

let base: string;
let root: string;
let outside: string;
const ctx = () => ({ root });
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-ws-'));
  root = join(base, 'ws');
  outside = join(base, 'ws2');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'README.md'), '# Title\nsome TODO here\n');
  writeFileSync(join(root, 'src', 'main.ts'), 'const a = 1;\n// TODO: more\nexport default a;\n');
  writeFileSync(join(root, 'src', 'deep', 'util.test.ts'), 'test("x", () => {});\n');
  writeFileSync(join(root, 'node_modules', 'pkg', 'index.ts'), '// TODO in a dependency\n');
  writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
  writeFileSync(join(outside, 'secret.txt'), 'TODO secret\n');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('path confinement', () => {
  test('paths inside the root resolve; empty, escaping and outside-absolute paths are rejected', () => {
    expect(confinePath('/ws', 'src/a.ts')).toEqual({ ok: true, path: '/ws/src/a.ts', relative: 'src/a.ts' });
    expect(confinePath('/ws/', '.')).toEqual({ ok: true, path: '/ws', relative: '.' });
    expect(confinePath('/ws', 'a/../b')).toMatchObject({ ok: true, path: '/ws/b' });
    expect(confinePath('/ws', '/ws/x')).toMatchObject({ ok: true, path: '/ws/x' });
    for (const bad of ['', '   ', '..', '../x', 'a/../../x', '/etc/passwd', '/ws2/x', '/ws2', '../ws2/x', 'a\0b']) {
      expect(confinePath('/ws', bad), bad).toMatchObject({ ok: false });
    }
    expect(confinePath('/ws', 42)).toMatchObject({ ok: false });
  });

  test('prefix matching is slash-terminated: a sibling sharing the prefix is outside', () => {
    const r = confinePath('/ws', '/ws2/secret.txt');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/absolute path outside the workspace/);
  });

  test('confinement is lexical: it needs no file system (the root need not exist)', () => {
    expect(confinePath('/no/such/root', 'a/b')).toMatchObject({ ok: true, path: '/no/such/root/a/b' });
    expect(confinePath('/', 'etc/hosts')).toMatchObject({ ok: true, path: '/etc/hosts' });
  });

  test('the root comes from config, then AMBER_WORKSPACE, then the working directory', () => {
    expect(resolveWorkspaceRoot({ configured: '/cfg', env: { AMBER_WORKSPACE: '/env' }, cwd: '/cwd' })).toBe('/cfg');
    expect(resolveWorkspaceRoot({ configured: '', env: { AMBER_WORKSPACE: '/env' }, cwd: '/cwd' })).toBe('/env');
    expect(resolveWorkspaceRoot({ env: { AMBER_WORKSPACE: 'rel' }, cwd: '/cwd' })).toBe('/cwd/rel');
    expect(resolveWorkspaceRoot({ env: {}, cwd: '/cwd' })).toBe('/cwd');
  });

  test('every tool rejects a path outside the workspace before touching it', async () => {
    const escape = join('..', 'ws2', 'new.txt');
    for (const tool of WORKSPACE_TOOLS.filter((t) => 'path' in ((t.spec.parameters as { properties?: object }).properties ?? {}))) {
      const args = { path: escape, pattern: 'x', content: 'x', oldText: 'TODO', newText: 'DONE' };
      const out = await tool.execute(args, ctx());
      expect(out.isError, tool.spec.name).toBe(true);
      expect(text(out), tool.spec.name).toMatch(/leaves the workspace/);
    }
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('TODO secret\n');
  });
});

describe('read-only tools', () => {
  test('read shows a file, pages with offset and limit, and says how to continue', async () => {
    expect(text(await readTool.execute({ path: 'src/main.ts' }, ctx()))).toBe('const a = 1;\n// TODO: more\nexport default a;');
    const page = text(await readTool.execute({ path: 'src/main.ts', offset: 2, limit: 1 }, ctx()));
    expect(page).toBe('// TODO: more\n\n[Showing lines 2-2 of 3. Use offset=3 to continue.]');
  });

  test('read truncates a long file with a note', async () => {
    writeFileSync(join(root, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const out = text(await readTool.execute({ path: 'big.txt' }, ctx()));
    expect(out).toContain('line 2000\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]');
    expect(out).not.toContain('line 2001');
  });

  test('read refuses folders and binary files with a sentence', async () => {
    expect(text(await readTool.execute({ path: 'src' }, ctx()))).toMatch(/is a directory; use ls/);
    expect(text(await readTool.execute({ path: 'logo.png' }, ctx()))).toMatch(/binary file/);
    const missing = await readTool.execute({ path: 'nope.txt' }, ctx());
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/no such file or directory/);
  });

  test('ls lists sorted entries with folders marked, and truncates past the limit', async () => {
    expect(text(await lsTool.execute({}, ctx()))).toBe('logo.png\nnode_modules/\nREADME.md\nsrc/');
    expect(text(await lsTool.execute({ path: 'src', limit: 1 }, ctx()))).toBe(
      'deep/\n\n[Output truncated: showing 1 of 2 entries. Raise limit or use find with a pattern.]',
    );
  });

  test('find matches names at any depth or paths, skipping node_modules and not following links', async () => {
    symlinkSync(outside, join(root, 'link-out'));
    expect(text(await findTool.execute({ pattern: '*.ts' }, ctx()))).toBe('src/deep/util.test.ts\nsrc/main.ts');
    expect(text(await findTool.execute({ pattern: 'deep/**', path: 'src' }, ctx()))).toBe('src/deep/util.test.ts');
    expect(text(await findTool.execute({ pattern: '*.txt' }, ctx()))).toMatch(/No files match/);
  });

  test('grep prints path:line: text, honours case, literal and glob, skips binaries and dependencies', async () => {
    expect(text(await grepTool.execute({ pattern: 'TODO' }, ctx()))).toBe('README.md:2: some TODO here\nsrc/main.ts:2: // TODO: more');
    expect(text(await grepTool.execute({ pattern: 'todo', ignoreCase: true, glob: '*.ts' }, ctx()))).toBe('src/main.ts:2: // TODO: more');
    expect(text(await grepTool.execute({ pattern: 'test("x"', literal: true }, ctx()))).toBe('src/deep/util.test.ts:1: test("x", () => {});');
    expect(text(await grepTool.execute({ pattern: 'const', path: 'src/main.ts' }, ctx()))).toBe('src/main.ts:1: const a = 1;');
    const bad = await grepTool.execute({ pattern: '(' }, ctx());
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/not a valid regular expression/);
  });

  test('grep stops at its limit and says the output was truncated', async () => {
    writeFileSync(join(root, 'many.txt'), 'hit\n'.repeat(50));
    const out = text(await grepTool.execute({ pattern: 'hit', limit: 3 }, ctx()));
    expect(out).toBe(
      'many.txt:1: hit\nmany.txt:2: hit\nmany.txt:3: hit\n\n[Output truncated: showing the first 3 matching lines. Narrow the pattern, path or glob.]',
    );
  });

  test('truncateOutput cuts at a line boundary within the byte limit and notes it', () => {
    const r = truncateOutput('aaaa\nbbbb\ncccc', { maxBytes: 10 });
    expect(r).toEqual({ truncated: true, text: 'aaaa\nbbbb\n\n[Output truncated: showing 2 of 3 lines (limits: 2000 lines, 0 KB).]' });
    expect(truncateOutput('short')).toEqual({ text: 'short', truncated: false });
  });
});

describe('write and edit', () => {
  test('write creates folders and files, then overwrites', async () => {
    const created = await writeTool.execute({ path: 'out/new/file.txt', content: 'héllo' }, ctx());
    expect(text(created)).toBe('Created out/new/file.txt (6 bytes).');
    expect(readFileSync(join(root, 'out/new/file.txt'), 'utf8')).toBe('héllo');
    expect(text(await writeTool.execute({ path: 'out/new/file.txt', content: 'x' }, ctx()))).toBe('Overwrote out/new/file.txt (1 bytes).');
    expect((await writeTool.execute({ path: '', content: 'x' }, ctx())).isError).toBe(true);
    expect((await writeTool.execute({ path: join(outside, 'x.txt'), content: 'x' }, ctx())).isError).toBe(true);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });

  test('edit replaces exactly one occurrence, and refuses missing or ambiguous text', async () => {
    expect(text(await editTool.execute({ path: 'src/main.ts', oldText: 'const a = 1;', newText: 'const a = 2;' }, ctx()))).toBe(
      'Replaced 1 occurrence in src/main.ts.',
    );
    expect(readFileSync(join(root, 'src/main.ts'), 'utf8')).toBe('const a = 2;\n// TODO: more\nexport default a;\n');
    const missing = await editTool.execute({ path: 'src/main.ts', oldText: 'const b', newText: '' }, ctx());
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/not found/);
    writeFileSync(join(root, 'twice.txt'), 'x x');
    const twice = await editTool.execute({ path: 'twice.txt', oldText: 'x', newText: 'y' }, ctx());
    expect(text(twice)).toMatch(/occurs 2 times/);
    expect(readFileSync(join(root, 'twice.txt'), 'utf8')).toBe('x x');
    expect(text(await editTool.execute({ path: 'twice.txt', oldText: 'x', newText: 'y', replaceAll: true }, ctx()))).toBe(
      'Replaced 2 occurrences in twice.txt.',
    );
    expect(readFileSync(join(root, 'twice.txt'), 'utf8')).toBe('y y');
  });

  test('edit keeps replacement patterns like $& literal', async () => {
    writeFileSync(join(root, 'p.txt'), 'price');
    await editTool.execute({ path: 'p.txt', oldText: 'price', newText: '$& is $1' }, ctx());
    expect(readFileSync(join(root, 'p.txt'), 'utf8')).toBe('$& is $1');
  });
});

describe('tool specs', () => {
  test('each spec is a valid ToolSpec with a JSON schema; read-only flags match the tools', () => {
    for (const tool of WORKSPACE_TOOLS) expect(() => ToolSpec.parse(tool.spec)).not.toThrow();
    expect(WORKSPACE_TOOLS.map((t) => [t.spec.name, t.spec.readOnly])).toEqual([
      ['read', true],
      ['ls', true],
      ['find', true],
      ['grep', true],
      ['write', false],
      ['edit', false],
      ['bash', false],
    ]);
    expect(WORKSPACE_TOOLS.filter((t) => t.spec.shell).map((t) => t.spec.name)).toEqual(['bash']);
    expect(readTool.spec.parameters).toMatchObject({ type: 'object', required: ['path'], properties: { path: { type: 'string' } } });
    expect(readTool.spec.parameters).not.toHaveProperty('$schema');
  });

  test('bad arguments give an error result the model can read, never a throw', async () => {
    const out = await readTool.execute({ path: 3 }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/Invalid arguments for read: path: /);
    expect((await editTool.execute(undefined, ctx())).isError).toBe(true);
  });
});
