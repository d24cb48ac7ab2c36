import { z } from 'zod';
import type { AccountSettings } from './wallet-accounts.ts';

const Account = z.object({
  apiKey: z.string().trim().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  warnBelow: z.number().nonnegative().optional(),
  currency: z.string().trim().min(1).optional(),
});

/**
 * A saved connection (Settings → Models) of a provider with a balance endpoint, with its key: main adds these
 * to this plugin's config alone (`providerAccounts`), as it gives provider plugins their accounts.
 */
export const ProviderAccountEntry = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'an account id is 1-64 lowercase letters, digits, _ or -'),
  /** The preset it was made from: which balance endpoint it has (`openrouter`, `deepseek`). */
  kind: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(120),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().trim().min(1).max(4000).optional(),
});
export type ProviderAccountEntry = z.infer<typeof ProviderAccountEntry>;

/**
 * The wallet plugin's config (`plugin.wallet.config`):
 *   openrouter, deepseek  { apiKey, baseUrl?, warnBelow?, currency? } — an account without a key is not shown
 *   warnBelow             warn when a balance is below this (default 1, in each wallet's currency)
 *   refreshMinutes        how old a balance may get before a tick reads it again (default 5)
 *   timeoutMs             how long one balance request may take (default 10000)
 *   providerAccounts      set by main, not the user: the saved connections a wallet each (ProviderAccountEntry)
 */
const fields = {
  warnBelow: z.number().nonnegative(),
  refreshMinutes: z.number().positive(),
  timeoutMs: z.number().int().positive().max(120_000),
};

export interface WalletConfig {
  accounts: Record<string, AccountSettings>;
  warnBelow: number;
  refreshMinutes: number;
  timeoutMs: number;
  /** The saved connections whose balance can be read, each with its own key (or none saved). */
  providerAccounts: ProviderAccountEntry[];
  problems: string[];
}

export const WALLET_DEFAULTS = { warnBelow: 1, refreshMinutes: 5, timeoutMs: 10_000 } as const;

/** Each key is read on its own: one bad value is ignored (and named) without losing the others. */
export function readWalletConfig(raw: Record<string, unknown>, accountIds: readonly string[]): WalletConfig {
  const problems: string[] = [];
  const note = (key: string, error: z.ZodError) => {
    const issue = error.issues[0];
    problems.push(`The wallet setting '${[key, ...(issue?.path ?? [])].join('.')}' was ignored: ${issue?.message ?? 'invalid'}.`);
  };
  const read = <K extends keyof typeof fields>(key: K): number => {
    if (raw[key] === undefined) return WALLET_DEFAULTS[key];
    const parsed = fields[key].safeParse(raw[key]);
    if (parsed.success) return parsed.data;
    note(key, parsed.error);
    return WALLET_DEFAULTS[key];
  };
  const accounts: Record<string, AccountSettings> = {};
  for (const id of accountIds) {
    if (raw[id] === undefined) {
      accounts[id] = {};
      continue;
    }
    const parsed = Account.safeParse(raw[id]);
    if (parsed.success) accounts[id] = parsed.data;
    else {
      note(id, parsed.error);
      accounts[id] = {};
    }
  }
  const providerAccounts: ProviderAccountEntry[] = [];
  const listed = raw['providerAccounts'];
  if (listed !== undefined && !Array.isArray(listed)) problems.push('The saved connections given to the wallet were ignored: not a list.');
  for (const [i, entry] of (Array.isArray(listed) ? listed : []).slice(0, 100).entries()) {
    const parsed = ProviderAccountEntry.safeParse(entry);
    if (parsed.success && !providerAccounts.some((a) => a.id === parsed.data.id)) providerAccounts.push(parsed.data);
    else if (!parsed.success) note(`providerAccounts.${i}`, parsed.error);
  }
  return { accounts, warnBelow: read('warnBelow'), refreshMinutes: read('refreshMinutes'), timeoutMs: read('timeoutMs'), providerAccounts, problems };
}
