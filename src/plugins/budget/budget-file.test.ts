import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetFile } from './budget-file.ts';
import { BudgetLedger } from './budget-ledger.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-budget-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the budget file', () => {
  it('starts empty when there is no file yet', () => {
    expect(new BudgetFile(join(dir, 'not-yet')).load()).toEqual({ data: undefined, problem: null });
  });

  it('saves and loads the ledger, creating its folder', () => {
    const ledger = new BudgetLedger();
    ledger.record({ usd: 2, tokens: 10 }, new Date(2026, 10, 30), 's1', 'e1');
    ledger.setLimit('day-usd', 7);
    const file = new BudgetFile(join(dir, 'deep', 'er'));
    file.save(ledger.toJSON());
    expect(file.load()).toEqual({ data: ledger.toJSON(), problem: null });
    expect(readdirSync(join(dir, 'deep', 'er'))).toEqual(['budget.json']);
  });

  it('sets an unreadable file aside instead of overwriting it, and says where it went', () => {
    const file = new BudgetFile(dir);
    writeFileSync(file.path, '{"version": 1, "totals": ');
    const loaded = file.load(1234);
    expect(loaded.data).toBeUndefined();
    expect(loaded.problem).toContain('could not be read');
    expect(loaded.problem).toContain('budget.json.unreadable-1234');
    expect(existsSync(file.path)).toBe(false);
    expect(readFileSync(join(dir, 'budget.json.unreadable-1234'), 'utf8')).toBe('{"version": 1, "totals": ');
  });

  it('does not read a ledger of another version', () => {
    const file = new BudgetFile(dir);
    writeFileSync(file.path, JSON.stringify({ version: 2 }));
    expect(file.load(5).problem).toContain('not a budget ledger');
  });
});
