import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFields, PluginManifest, secretKeys } from '../../shared/plugins/index.ts';
import { readWalletConfig, WALLET_DEFAULTS } from './wallet-config.ts';

const ids = ['openrouter', 'deepseek'];

describe('wallet config', () => {
  it('has defaults, and no account is set up without a key', () => {
    expect(readWalletConfig({}, ids)).toEqual({
      accounts: { openrouter: {}, deepseek: {} },
      warnBelow: 1,
      refreshMinutes: 5,
      timeoutMs: 10_000,
      providerAccounts: [],
      problems: [],
    });
  });

  it('reads the saved connections main gives it, and drops a hostile one with a note that never holds its key', () => {
    const good = { id: 'work', kind: 'openrouter', name: 'Work', baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'sk-good' };
    const cfg = readWalletConfig(
      {
        providerAccounts: [
          good,
          { ...good, name: 'Same id again' },
          { id: '../etc', kind: 'openrouter', name: 'x', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-path' },
          { id: 'file', kind: 'deepseek', name: 'x', baseUrl: 'file:///etc/passwd', apiKey: 'sk-file' },
          { id: 'long', kind: 'deepseek', name: 'x', baseUrl: 'http://127.0.0.1:9', apiKey: 'k'.repeat(5000) },
          'not an object',
        ],
      },
      ids,
    );
    expect(cfg.providerAccounts).toEqual([good]);
    expect(cfg.problems.map((p) => p.split(' was')[0])).toEqual([
      "The wallet setting 'providerAccounts.2.id'",
      "The wallet setting 'providerAccounts.3.baseUrl'",
      "The wallet setting 'providerAccounts.4.apiKey'",
      "The wallet setting 'providerAccounts.5'",
    ]);
    expect(cfg.problems.join(' ')).not.toMatch(/sk-|kkkk/);
    expect(readWalletConfig({ providerAccounts: { work: good } }, ids).problems).toEqual([
      'The saved connections given to the wallet were ignored: not a list.',
    ]);
  });

  it('reads each account’s key, base URL, threshold and currency', () => {
    const cfg = readWalletConfig(
      { deepseek: { apiKey: 'k', baseUrl: 'http://127.0.0.1:8080', warnBelow: 3, currency: 'CNY' }, warnBelow: 2, timeoutMs: 500 },
      ids,
    );
    expect(cfg.accounts.deepseek).toEqual({ apiKey: 'k', baseUrl: 'http://127.0.0.1:8080', warnBelow: 3, currency: 'CNY' });
    expect([cfg.warnBelow, cfg.timeoutMs]).toEqual([2, 500]);
  });

  it('ignores a bad account or value and names it', () => {
    const cfg = readWalletConfig({ openrouter: { apiKey: 'k', baseUrl: 'ftp://example' }, refreshMinutes: -1 }, ids);
    expect(cfg.accounts.openrouter).toEqual({});
    expect(cfg.refreshMinutes).toBe(5);
    expect(cfg.problems.map((p) => p.split(' was')[0])).toEqual(["The wallet setting 'openrouter.baseUrl'", "The wallet setting 'refreshMinutes'"]);
  });

  it('declares in its manifest the settings it reads, with the same defaults, its two API keys secret', () => {
    const manifest = PluginManifest.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')));
    const fields = configFields(manifest.configuration!);
    expect(fields.map((f) => f.key)).toEqual([
      'openrouter.apiKey',
      'openrouter.baseUrl',
      'openrouter.warnBelow',
      'deepseek.apiKey',
      'deepseek.baseUrl',
      'deepseek.warnBelow',
      'deepseek.currency',
      'warnBelow',
      'refreshMinutes',
      'timeoutMs',
    ]);
    expect(secretKeys(manifest.configuration)).toEqual(['openrouter.apiKey', 'deepseek.apiKey']);
    const defaults = Object.fromEntries(fields.filter((f) => f.setting.default !== undefined).map((f) => [f.key, f.setting.default]));
    expect(defaults).toEqual({ ...WALLET_DEFAULTS });
  });
});
