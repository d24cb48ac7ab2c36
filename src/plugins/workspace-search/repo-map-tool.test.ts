import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { createRepoMapTool } from './repo-map-tool.ts';
import { SearchIndexService } from './search-index-service.ts';

let base: string;
let root: string;
let index: SearchIndexService | null = null;
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-repo-map-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src', 'billing'), { recursive: true });
  mkdirSync(join(root, 'src', 'mail'), { recursive: true });
  writeFileSync(
    join(root, 'src', 'ledger.ts'),
    'export class LedgerStore {\n  open() {}\n}\nexport function openLedger(): LedgerStore {\n  return new LedgerStore();\n}\n',
  );
  for (let i = 0; i < 6; i++) {
    writeFileSync(join(root, 'src', `use${i}.ts`), `import { openLedger } from './ledger.ts';\nexport function task${i}() {\n  return openLedger();\n}\n`);
  }
  writeFileSync(
    join(root, 'src', 'billing', 'invoice.py'),
    'from tax import compute_tax\nclass InvoiceMaker:\n    def make(self):\n        return compute_tax()\n',
  );
  writeFileSync(join(root, 'src', 'billing', 'tax.py'), 'def compute_tax():\n    return 1\n');
  writeFileSync(join(root, 'src', 'mail', 'send.go'), 'package mail\nfunc SendMail() {\n\tDeliver()\n}\n');
  writeFileSync(join(root, 'src', 'mail', 'deliver.go'), 'package mail\nfunc Deliver() {}\n');
});

afterEach(() => {
  index?.dispose();
  index = null;
  rmSync(base, { recursive: true, force: true });
});

test('the map lists the most used definitions first, leans toward the focus, and keeps within its token budget', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createRepoMapTool({ indexOf: () => index });
  await index.ready;
  const map = text(await tool.execute({}, { root }));
  expect(map.split('\n').slice(0, 2)).toEqual(['src/ledger.ts:', '  1: export class LedgerStore {']);
  expect(map).toContain('  4: export function openLedger(): LedgerStore {');
  expect(map).toContain('src/billing/tax.py:\n  1: def compute_tax():');
  expect(map).toContain('src/mail/deliver.go:\n  2: func Deliver() {}');
  const focused = text(await tool.execute({ focus: ['src/billing/invoice.py'] }, { root }));
  expect(focused.split('\n').slice(0, 2)).toEqual(['src/billing/tax.py:', '  1: def compute_tax():']);
  const byName = text(await tool.execute({ focus: ['SendMail'] }, { root }));
  expect(byName.split('\n').slice(0, 2)).toEqual(['src/mail/send.go:', '  2: func SendMail() {']);
  const small = text(await tool.execute({ tokens: 100 }, { root }));
  expect(small.length).toBeLessThanOrEqual(400);
  expect(small.startsWith('src/ledger.ts:')).toBe(true);
  const scoped = text(await tool.execute({ path: 'src/mail' }, { root }));
  expect(scoped).toMatch(/^src\/mail\//);
  expect(scoped).not.toContain('ledger');
});

test('the map follows an edit, and says what it covers when a folder has no definitions', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false, rescanAfterMs: 0 });
  const tool = createRepoMapTool({ indexOf: () => index });
  await index.ready;
  writeFileSync(join(root, 'src', 'ledger.ts'), '// renamed\nexport function openBook() {}\n');
  for (let i = 0; i < 6; i++) writeFileSync(join(root, 'src', `use${i}.ts`), `import { openBook } from './ledger.ts';\nopenBook();\n`);
  await tool.execute({}, { root });
  await index.settled();
  expect(
    text(await tool.execute({}, { root }))
      .split('\n')
      .slice(0, 2),
  ).toEqual(['src/ledger.ts:', '  2: export function openBook() {}']);
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'notes.md'), '# notes\n');
  expect(text(await tool.execute({ path: 'docs' }, { root }))).toBe(
    'No definitions found in docs (the map covers TypeScript, JavaScript, Python, Go, Rust and shell files).',
  );
});

test('the map refuses hostile arguments with a sentence', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createRepoMapTool({ indexOf: () => index });
  await index.ready;
  symlinkSync(base, join(root, 'out'));
  for (const args of [
    { path: '../' },
    { path: 'out' },
    { path: '/etc' },
    { tokens: 5 },
    { tokens: 1e9 },
    { focus: 'src' },
    { focus: Array.from({ length: 21 }, () => 'a') },
    { focus: ['x'.repeat(201)] },
    { focus: [''] },
  ]) {
    const out = await tool.execute(args, { root });
    expect(out.isError, JSON.stringify(args)).toBe(true);
    expect(text(out)).toMatch(/^[A-Z`a-z].*\S/);
  }
});
