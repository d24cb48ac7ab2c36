import { z } from 'zod';
import { baseUrlSettingOf, type BalanceSource, failed, type WalletReading } from './wallet-reading.ts';

/** `GET {baseUrl}/credits` → `{ data: { total_credits, total_usage } }`, both in US dollars. */
export const OpenRouterCredits = z.object({
  data: z.object({ total_credits: z.number().finite(), total_usage: z.number().finite() }),
});
export type OpenRouterCredits = z.infer<typeof OpenRouterCredits>;

export const OPENROUTER_DEFAULT_BASE_URL = 'https://openrouter.ai/api/v1';
export const OPENROUTER_CREDITS_PATH = 'credits';
/** OpenRouter answers this endpoint only for a management key, not for an inference key. */
export const OPENROUTER_KEY_HINT = 'OpenRouter gives credits only to a management key (openrouter.ai → Settings → Management keys).';

/** The balance is what was bought minus what was used. */
export function parseOpenRouterCredits(source: BalanceSource, body: unknown): WalletReading {
  const parsed = OpenRouterCredits.safeParse(body);
  if (!parsed.success) return notCredits(source, parsed.error);
  const { total_credits: bought, total_usage: used } = parsed.data.data;
  const balance = bought - used;
  return {
    ok: true,
    balance,
    currency: 'USD',
    available: balance > 0,
    details: [
      { key: 'Purchased', value: `$${bought.toFixed(2)}` },
      { key: 'Used', value: `$${used.toFixed(2)}` },
    ],
  };
}

function notCredits(source: BalanceSource, error: z.ZodError): WalletReading {
  const issue = error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : 'the answer';
  return failed(
    'bad_response',
    `${source.service}'s answer is not a credits balance (${where}: ${issue?.message ?? 'invalid'}). Check ${baseUrlSettingOf(source)} (the balance was asked at ${source.url}).`,
  );
}
