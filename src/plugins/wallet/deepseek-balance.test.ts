import { describe, expect, it } from 'vitest';
import { parseDeepSeekBalance } from './deepseek-balance.ts';

const source = { service: 'DeepSeek', configKey: 'deepseek', url: 'http://127.0.0.1:1/user/balance' };
const cny = { currency: 'CNY', total_balance: '110.00', granted_balance: '10.00', topped_up_balance: '100.00' };
const usd = { currency: 'USD', total_balance: '15.50', granted_balance: '0.00', topped_up_balance: '15.50' };

describe("DeepSeek's balance", () => {
  it('reads the decimal strings DeepSeek sends', () => {
    const reading = parseDeepSeekBalance(source, { is_available: true, balance_infos: [cny] });
    expect(reading).toEqual({
      ok: true,
      balance: 110,
      currency: 'CNY',
      available: true,
      details: [
        { key: 'Topped up', value: '100.00' },
        { key: 'Granted', value: '10.00' },
      ],
    });
  });

  it('shows USD when there are several currencies, unless another is asked for', () => {
    const body = { is_available: true, balance_infos: [cny, usd] };
    const first = parseDeepSeekBalance(source, body);
    expect(first.ok && [first.balance, first.currency]).toEqual([15.5, 'USD']);
    expect(first.ok && first.details.at(-1)).toEqual({ key: 'Also in CNY', value: '110.00' });
    const asked = parseDeepSeekBalance(source, body, 'cny');
    expect(asked.ok && [asked.balance, asked.currency]).toEqual([110, 'CNY']);
  });

  it('keeps is_available: false so the panel can warn', () => {
    const reading = parseDeepSeekBalance(source, { is_available: false, balance_infos: [{ ...usd, total_balance: '0.00' }] });
    expect(reading.ok && reading.available).toBe(false);
  });

  it('an account without balance entries reads as zero', () => {
    const reading = parseDeepSeekBalance(source, { is_available: false, balance_infos: [] });
    expect(reading).toEqual({ ok: true, balance: 0, currency: 'USD', available: false, details: [] });
  });

  it('an amount that is not a number is an error naming the field', () => {
    const reading = parseDeepSeekBalance(source, { is_available: true, balance_infos: [{ ...cny, total_balance: 'lots' }] });
    expect(reading.ok).toBe(false);
    if (!reading.ok) {
      expect(reading.failure).toBe('bad_response');
      expect(reading.error).toContain('balance_infos.0.total_balance');
      expect(reading.error).toContain('deepseek.baseUrl');
    }
  });

  it("OpenRouter's format is not DeepSeek's", () => {
    expect(parseDeepSeekBalance(source, { data: { total_credits: 1, total_usage: 0 } }).ok).toBe(false);
  });
});
