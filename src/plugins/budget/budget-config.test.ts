import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFields, PluginManifest } from '../../shared/plugins/index.ts';
import { readBudgetConfig } from './budget-config.ts';

describe('budget config', () => {
  it('has defaults', () => {
    expect(readBudgetConfig({})).toEqual({ budgets: [], warnAt: 0.8, providers: [], prices: {}, dataDir: undefined, problems: [] });
  });

  it('reads budgets with money as the default unit', () => {
    const cfg = readBudgetConfig({
      budgets: [
        { period: 'day', limit: 5 },
        { period: 'session', unit: 'tokens', limit: 1000 },
      ],
      warnAt: 0.5,
    });
    expect(cfg.budgets).toEqual([
      { id: 'day-usd', period: 'day', unit: 'usd', limit: 5 },
      { id: 'session-tokens', period: 'session', unit: 'tokens', limit: 1000 },
    ]);
    expect(cfg.warnAt).toBe(0.5);
  });

  it('ignores one bad value, names it, and keeps the others', () => {
    const cfg = readBudgetConfig({ budgets: [{ period: 'week', limit: 5 }], warnAt: 2, dataDir: '/data' });
    expect(cfg.budgets).toEqual([]);
    expect(cfg.warnAt).toBe(0.8);
    expect(cfg.dataDir).toBe('/data');
    expect(cfg.problems).toHaveLength(2);
    expect(cfg.problems[0]).toMatch(/^The budget setting 'budgets\.0\.period' was ignored/);
    expect(cfg.problems[1]).toMatch(/^The budget setting 'warnAt' was ignored/);
  });

  it('reads the limits the settings form writes, over the same budget in the list form', () => {
    const cfg = readBudgetConfig({ limits: { dayUsd: 7, monthTokens: 2_000_000 }, budgets: [{ period: 'day', limit: 5 }] });
    expect(cfg.budgets).toEqual([
      { id: 'day-usd', period: 'day', unit: 'usd', limit: 7 },
      { id: 'month-tokens', period: 'month', unit: 'tokens', limit: 2_000_000 },
    ]);
    expect(cfg.problems).toEqual([]);
  });

  it('reads the providers the budgets cover, and ignores a list that is not one of names', () => {
    expect(readBudgetConfig({ providers: ['openrouter', ' anthropic '] }).providers).toEqual(['openrouter', 'anthropic']);
    const bad = readBudgetConfig({ providers: 'openrouter' });
    expect(bad.providers).toEqual([]);
    expect(bad.problems[0]).toMatch(/^The budget setting 'providers' was ignored/);
  });

  it('ignores a limit that is not a positive number, and names it', () => {
    const cfg = readBudgetConfig({ limits: { dayUsd: -1 } });
    expect(cfg.budgets).toEqual([]);
    expect(cfg.problems[0]).toMatch(/^The budget setting 'limits\.dayUsd' was ignored/);
  });

  it('reads every limit its manifest declares for the settings form', () => {
    const manifest = PluginManifest.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')));
    const limits = configFields(manifest.configuration!).filter((f) => f.key.startsWith('limits.'));
    expect(limits).toHaveLength(6);
    const cfg = readBudgetConfig({ limits: Object.fromEntries(limits.map((f, i) => [f.key.slice('limits.'.length), i + 1])), warnAt: 0.5 });
    expect(cfg.problems).toEqual([]);
    expect(cfg.budgets.map((b) => b.id).sort()).toEqual(['day-tokens', 'day-usd', 'month-tokens', 'month-usd', 'session-tokens', 'session-usd']);
  });
});
