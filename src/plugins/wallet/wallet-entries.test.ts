import { describe, expect, it } from 'vitest';
import { WALLET_ACCOUNTS } from './wallet-accounts.ts';
import { readWalletConfig } from './wallet-config.ts';
import { entrySettings, entrySource, walletEntries } from './wallet-entries.ts';

const ids = WALLET_ACCOUNTS.map((a) => a.id);
const account = (id: string, kind: string, name: string, baseUrl: string, apiKey?: string) => ({ id, kind, name, baseUrl, ...(apiKey ? { apiKey } : {}) });

describe('the wallets for a config', () => {
  it('without saved connections: the wallet’s own two, as before', () => {
    const cfg = readWalletConfig({ openrouter: { apiKey: 'm' } }, ids);
    expect(walletEntries(WALLET_ACCOUNTS, cfg).map((e) => [e.id, e.provider, e.title, e.accountId])).toEqual([
      ['openrouter', 'openrouter', 'OpenRouter', null],
      ['deepseek', 'deepseek', 'DeepSeek', null],
    ]);
  });

  it('one wallet per saved connection, named by it, with its own key and its balance address', () => {
    const cfg = readWalletConfig(
      {
        providerAccounts: [
          account('work', 'openrouter', 'Work', 'https://openrouter.ai/api/v1', 'k-work'),
          account('home', 'openrouter', 'Home', 'https://openrouter.ai/api/v1/', 'k-home'),
          account('deepseek', 'deepseek', 'DeepSeek', 'https://api.deepseek.com/v1'),
        ],
      },
      ids,
    );
    const entries = walletEntries(WALLET_ACCOUNTS, cfg);
    expect(entries.map((e) => [e.id, e.provider, e.title])).toEqual([
      ['work', 'work', 'Work'],
      ['home', 'home', 'Home'],
      ['deepseek', 'deepseek', 'DeepSeek'],
    ]);
    expect(entries.map((e) => entrySettings(e, cfg))).toEqual([
      { apiKey: 'k-work', baseUrl: 'https://openrouter.ai/api/v1' },
      { apiKey: 'k-home', baseUrl: 'https://openrouter.ai/api/v1/' },
      { baseUrl: 'https://api.deepseek.com' },
    ]);
    const source = entrySource(entries[0]!, 'u');
    expect([source.service, source.keySetting]).toEqual(['Work (OpenRouter)', 'the API key of the connection "Work" in Settings → Models']);
  });

  it('the wallet’s own key keeps serving the kind’s own connection; other connections get their own wallet', () => {
    const cfg = readWalletConfig(
      {
        openrouter: { apiKey: 'management' },
        providerAccounts: [
          account('openrouter', 'openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1', 'inference'),
          account('work', 'openrouter', 'Work', 'https://openrouter.ai/api/v1', 'k-work'),
        ],
      },
      ids,
    );
    const entries = walletEntries(WALLET_ACCOUNTS, cfg);
    expect(entries.map((e) => [e.id, e.accountId])).toEqual([
      ['openrouter', null],
      ['work', 'work'],
      ['deepseek', null],
    ]);
    expect(entrySettings(entries[0]!, cfg).apiKey).toBe('management');
  });

  it('a connection whose id is another kind’s wallet id gets a prefixed wallet id, so no two collide', () => {
    const cfg = readWalletConfig(
      { deepseek: { apiKey: 'd' }, providerAccounts: [account('deepseek', 'openrouter', 'deepseek', 'https://openrouter.ai/api/v1', 'k')] },
      ids,
    );
    const wallets = walletEntries(WALLET_ACCOUNTS, cfg).map((e) => e.id);
    expect(wallets).toEqual(['account:deepseek', 'deepseek']);
    expect(new Set(wallets).size).toBe(wallets.length);
  });
});
