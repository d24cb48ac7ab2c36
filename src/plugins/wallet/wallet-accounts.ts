import { DEEPSEEK_BALANCE_PATH, DEEPSEEK_DEFAULT_BASE_URL, parseDeepSeekBalance } from './deepseek-balance.ts';
import { OPENROUTER_CREDITS_PATH, OPENROUTER_DEFAULT_BASE_URL, OPENROUTER_KEY_HINT, parseOpenRouterCredits } from './openrouter-credits.ts';
import type { BalanceSource, WalletReading } from './wallet-reading.ts';

/** A provider account whose balance the wallet plugin can read. */
export interface WalletAccount {
  /** The wallet's id and the config key of its settings. */
  id: string;
  service: string;
  /** The provider id the wallet belongs to. */
  provider: string;
  defaultBaseUrl: string;
  path: string;
  /** The currency declared before the first reading. */
  defaultCurrency: string;
  keyHint?: string;
  /** Where the user adds money. */
  topUpUrl: string;
  /** The balance's base URL for a saved connection's address (DeepSeek's models are under /v1, its balance is not). */
  balanceBase(providerBaseUrl: string): string;
  parse(source: BalanceSource, body: unknown, settings: AccountSettings): WalletReading;
}

/** One account's settings, under its id in the plugin's config (`openrouter: { apiKey, baseUrl, … }`). */
export interface AccountSettings {
  apiKey?: string;
  baseUrl?: string;
  /** Warn when the balance is below this (in the wallet's currency); the plugin-wide `warnBelow` otherwise. */
  warnBelow?: number;
  /** For accounts with several currencies: the one to show. */
  currency?: string;
}

export const WALLET_ACCOUNTS: readonly WalletAccount[] = [
  {
    id: 'openrouter',
    service: 'OpenRouter',
    provider: 'openrouter',
    defaultBaseUrl: OPENROUTER_DEFAULT_BASE_URL,
    path: OPENROUTER_CREDITS_PATH,
    defaultCurrency: 'USD',
    keyHint: OPENROUTER_KEY_HINT,
    topUpUrl: 'https://openrouter.ai/settings/credits',
    balanceBase: (url) => url,
    parse: (source, body) => parseOpenRouterCredits(source, body),
  },
  {
    id: 'deepseek',
    service: 'DeepSeek',
    provider: 'deepseek',
    defaultBaseUrl: DEEPSEEK_DEFAULT_BASE_URL,
    path: DEEPSEEK_BALANCE_PATH,
    defaultCurrency: 'USD',
    topUpUrl: 'https://platform.deepseek.com/top_up',
    balanceBase: (url) => url.replace(/\/+$/, '').replace(/\/v1$/, ''),
    parse: (source, body, settings) => parseDeepSeekBalance(source, body, settings.currency),
  },
];

/** The URL asked for an account's balance: its base URL (overridable) and the endpoint's path. */
export function balanceUrl(account: WalletAccount, settings: AccountSettings): string {
  return `${(settings.baseUrl ?? account.defaultBaseUrl).replace(/\/+$/, '')}/${account.path}`;
}
