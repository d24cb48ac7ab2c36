import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { PolicyRuleBook, ruleHoldsIn, shellGrants } from './policy-rule-book.ts';

let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-rule-book-'));
  store = SessionStore.open(join(dir, 'amber.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the same prefix approved again under a worse class keeps one rule with the worse class; a better one changes nothing', () => {
  let n = 0;
  const book = new PolicyRuleBook(new SettingsService({ store }), () => `r${++n}`);
  const first = book.add({ effect: 'allow', tool: 'bash', command: 'npm test', class: 'write', workspace: '/ws/' });
  expect(first).toEqual({ changed: true, rule: { id: 'r1', effect: 'allow', tool: 'bash', command: 'npm test', class: 'write', workspace: '/ws' } });
  expect(book.add({ effect: 'allow', tool: 'bash', command: 'npm test', class: 'unknown', workspace: '/ws' })).toMatchObject({
    changed: true,
    rule: { id: 'r1', class: 'unknown' },
  });
  expect(book.add({ effect: 'allow', tool: 'bash', command: 'npm test', class: 'read_only', workspace: '/ws' })).toMatchObject({
    changed: false,
    rule: { class: 'unknown' },
  });
  // Another workspace is another rule.
  book.add({ effect: 'allow', tool: 'bash', command: 'npm test', class: 'write', workspace: '/other' });
  expect(book.list().map((r) => r.id)).toEqual(['r1', 'r2']);
  expect(shellGrants(book.list(), 'bash', '/ws')).toEqual(new Map([['npm test', 'unknown']]));
  expect(shellGrants(book.list(), 'sh', '/ws')).toEqual(new Map());
  expect(shellGrants(book.list(), 'bash', '/nowhere')).toEqual(new Map());
});

test('a rule without a workspace holds everywhere; one with a workspace only in that folder (not beside or below it)', () => {
  expect(ruleHoldsIn({ effect: 'allow', tool: 't' }, '/any')).toBe(true);
  expect(ruleHoldsIn({ effect: 'allow', tool: 't', workspace: '/ws' }, '/ws/')).toBe(true);
  expect(ruleHoldsIn({ effect: 'allow', tool: 't', workspace: '/ws' }, '/ws2')).toBe(false);
  expect(ruleHoldsIn({ effect: 'allow', tool: 't', workspace: '/ws' }, '/ws/sub')).toBe(false);
});

test('unreadable stored rules throw rather than read as none', () => {
  store.setSetting('policy.rules', '[{"effect":"allow"}]');
  expect(() => new PolicyRuleBook(new SettingsService({ store })).list()).toThrow(/cannot be read/);
});
