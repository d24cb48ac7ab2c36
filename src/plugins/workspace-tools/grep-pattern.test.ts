import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { grepTool } from './index.ts';

let root: string;
const ctx = () => ({ root });
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');
/** A backtracking engine needs seconds for a few of these lines; a linear one needs microseconds. */
const PROMPT_MS = 1_000;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'amber-grep-'));
  writeFileSync(join(root, 'notes.txt'), 'TODO first\nsee (?=x) and \\1 here\nfoo bar\nfoobar\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('grep patterns', () => {
  test('a catastrophic pattern against runs of a returns promptly', async () => {
    writeFileSync(join(root, 'hostile.txt'), `${'a'.repeat(27)}!\n`.repeat(3));
    let started = performance.now();
    expect(text(await grepTool.execute({ pattern: '(a+)+$' }, ctx()))).toBe('No matches for (a+)+$ in ..');
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
    writeFileSync(join(root, 'hostile.txt'), `${'a'.repeat(200_000)}!\n${'a'.repeat(50_000)}\n`);
    started = performance.now();
    expect(text(await grepTool.execute({ pattern: '(a+)+$', path: 'hostile.txt' }, ctx()))).toMatch(/^hostile\.txt:2: a{500}… \[49500 more characters\]$/);
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  });

  test.each([
    ['(o)\\1', 'a backreference (\\1)'],
    ['(?<n>o)\\k<n>', 'a backreference (\\k'],
    ['foo(?=bar)', 'lookaround ((?='],
    ['foo(?!bar)', 'lookaround ((?!'],
    ['(?<=foo)bar', 'lookaround ((?<='],
    ['(?<!x)bar', 'lookaround ((?<!'],
  ])('%s is refused with a sentence that names what RE2 cannot express and suggests literal: true', async (pattern, named) => {
    const out = await grepTool.execute({ pattern }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain(`The pattern uses ${named}`);
    expect(text(out)).toMatch(/cannot express; pass literal: true to search for the text as is, or use a simpler pattern\.$/);
  });

  test('literal: true finds the text of a pattern RE2 cannot express', async () => {
    expect(text(await grepTool.execute({ pattern: '(?=x)', literal: true }, ctx()))).toBe('notes.txt:2: see (?=x) and \\1 here');
    expect(text(await grepTool.execute({ pattern: '\\1', literal: true }, ctx()))).toBe('notes.txt:2: see (?=x) and \\1 here');
  });

  test('ignoreCase, classes and anchors keep working', async () => {
    expect(text(await grepTool.execute({ pattern: '^todo\\b', ignoreCase: true }, ctx()))).toBe('notes.txt:1: TODO first');
    expect(text(await grepTool.execute({ pattern: '^todo' }, ctx()))).toMatch(/^No matches/);
    expect(text(await grepTool.execute({ pattern: 'foo\\s+bar$' }, ctx()))).toBe('notes.txt:3: foo bar');
  });

  test('an invalid pattern is refused as invalid, not as unsupported', async () => {
    const unclosed = await grepTool.execute({ pattern: '(a' }, ctx());
    expect(unclosed.isError).toBe(true);
    expect(text(unclosed)).toMatch(/^The pattern is not a valid regular expression \(.*missing closing \).*\); fix it or pass literal: true\.$/);
  });
});
