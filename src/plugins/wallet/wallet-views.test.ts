import { describe, expect, it } from 'vitest';
import { WALLET_ACCOUNTS } from './wallet-accounts.ts';
import { type AccountView, accountWarnings, walletPanel, walletSegment } from './wallet-views.ts';

const [openrouter, deepseek] = WALLET_ACCOUNTS as [(typeof WALLET_ACCOUNTS)[number], (typeof WALLET_ACCOUNTS)[number]];
const time = (ms: number) => `t${ms}`;

const good = (account = deepseek, balance = 110, available = true): AccountView => ({
  account,
  configured: true,
  reading: { ok: true, balance, currency: 'CNY', available, details: [] },
  readAt: 2,
  lastGood: { balance, currency: 'CNY', at: 2 },
  warnBelow: 1,
});

describe('wallet views', () => {
  it('a healthy balance has no warning', () => {
    expect(accountWarnings(good())).toEqual([]);
  });

  it('a balance DeepSeek says cannot pay is a warning with where to add money', () => {
    expect(accountWarnings(good(deepseek, 3, false))).toEqual([
      'DeepSeek says this balance cannot pay for API calls. Add money at https://platform.deepseek.com/top_up.',
    ]);
  });

  it('below the threshold, one warning says so (not also that it cannot pay)', () => {
    expect(accountWarnings(good(deepseek, 0.5, false))).toEqual(['The balance is below ¥1.00. Add money at https://platform.deepseek.com/top_up.']);
  });

  it('a failed refresh keeps the last good balance beside its error', () => {
    const v: AccountView = { ...good(), reading: { ok: false, failure: 'server', error: 'DeepSeek had a server error (HTTP 500).' }, readAt: 9 };
    const panel = walletPanel([v], [], time);
    expect(panel.sections[0]!.rows).toEqual([
      { type: 'keyValue', key: 'Balance', value: '¥110.00' },
      { type: 'keyValue', key: 'Currency', value: 'CNY' },
      { type: 'keyValue', key: 'Last refresh', value: 't9 (failed; balance as of t2)' },
      { type: 'text', text: '⚠ DeepSeek had a server error (HTTP 500).' },
    ]);
    expect(walletSegment([v], time).text).toBe('⚠ DeepSeek ¥110.00');
  });

  it('without any account set up there is no refresh action and the segment says what to set', () => {
    const v: AccountView = { account: openrouter, configured: false, reading: null, readAt: null, lastGood: null, warnBelow: 1 };
    expect(walletPanel([v], [], time).actions).toEqual([]);
    expect(walletSegment([v], time)).toMatchObject({ text: '', tooltip: expect.stringContaining('Settings → Plugins → Wallet → Settings') });
  });
});
