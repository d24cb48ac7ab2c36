import { z } from 'zod';
import { baseUrlSettingOf, type BalanceSource, failed, type WalletReading } from './wallet-reading.ts';

/** DeepSeek sends amounts as decimal strings ("110.00"); numbers are accepted too. */
const Amount = z.union([
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'not a decimal amount')
    .transform(Number),
  z.number().finite(),
]);

/** `GET {baseUrl}/user/balance` → `{ is_available, balance_infos: [{ currency, total_balance, granted_balance, topped_up_balance }] }`. */
export const DeepSeekBalance = z.object({
  is_available: z.boolean(),
  balance_infos: z.array(
    z.object({
      currency: z.string().min(1),
      total_balance: Amount,
      granted_balance: Amount.optional(),
      topped_up_balance: Amount.optional(),
    }),
  ),
});
export type DeepSeekBalance = z.infer<typeof DeepSeekBalance>;

export const DEEPSEEK_DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEEPSEEK_BALANCE_PATH = 'user/balance';

/**
 * One balance per currency; the one shown is the currency asked for, else USD, else the first. An account
 * without any balance entry reads as zero in the preferred currency.
 */
export function parseDeepSeekBalance(source: BalanceSource, body: unknown, preferredCurrency?: string): WalletReading {
  const parsed = DeepSeekBalance.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : 'the answer';
    return failed(
      'bad_response',
      `${source.service}'s answer is not an account balance (${where}: ${issue?.message ?? 'invalid'}). Check ${baseUrlSettingOf(source)} (the balance was asked at ${source.url}).`,
    );
  }
  const { is_available: available, balance_infos: infos } = parsed.data;
  const wanted = preferredCurrency?.toUpperCase();
  const info = infos.find((i) => i.currency.toUpperCase() === wanted) ?? infos.find((i) => i.currency.toUpperCase() === 'USD') ?? infos[0];
  if (!info) return { ok: true, balance: 0, currency: wanted ?? 'USD', available, details: [] };
  const details: { key: string; value: string }[] = [];
  if (info.topped_up_balance !== undefined) details.push({ key: 'Topped up', value: info.topped_up_balance.toFixed(2) });
  if (info.granted_balance !== undefined) details.push({ key: 'Granted', value: info.granted_balance.toFixed(2) });
  for (const other of infos) if (other !== info) details.push({ key: `Also in ${other.currency}`, value: other.total_balance.toFixed(2) });
  return { ok: true, balance: info.total_balance, currency: info.currency.toUpperCase(), available, details };
}
