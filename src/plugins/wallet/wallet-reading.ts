// What asking a provider for the account's balance gave: a balance, or why not as a sentence the user can act
// on. Readings are values, never exceptions: every failure of the network, the server or its answer lands here.

export type WalletFailure = 'no_key' | 'auth' | 'rate_limit' | 'server' | 'bad_response' | 'timeout' | 'network';

export type WalletReading =
  | {
      ok: true;
      balance: number;
      currency: string;
      /** False when the provider says the balance cannot pay for API calls. */
      available: boolean;
      /** Extra lines for the panel: purchased, used, granted, topped up. */
      details: { key: string; value: string }[];
    }
  | { ok: false; failure: WalletFailure; error: string };

/** Which account a reading is for, so messages name the service and the config key to change. */
export interface BalanceSource {
  /** The service as people call it: 'OpenRouter'. */
  service: string;
  /** The plugin config key that holds this account's settings: 'openrouter'. */
  configKey: string;
  /** The full URL asked. */
  url: string;
  /** Added to messages about a refused key (e.g. the endpoint needs a particular kind of key). */
  keyHint?: string;
  /** Where the user changes the key, for messages: the wallet's own setting unless said otherwise. */
  keySetting?: string;
  /** Where the user changes the address, for messages: `<configKey>.baseUrl` unless said otherwise. */
  baseUrlSetting?: string;
}

/** `the OpenRouter API key in Settings → Plugins → Wallet → Settings`, or the saved connection whose key a wallet uses. */
export function keySettingOf(source: BalanceSource): string {
  return source.keySetting ?? `the ${source.service} API key in Settings → Plugins → Wallet → Settings`;
}

/** `openrouter.baseUrl`, or the saved connection whose address a wallet uses. */
export function baseUrlSettingOf(source: BalanceSource): string {
  return source.baseUrlSetting ?? `${source.configKey}.baseUrl`;
}

export function failed(failure: WalletFailure, error: string): WalletReading {
  return { ok: false, failure, error };
}

/** `12.34 USD` as money: `$12.34`, `¥110.00`, else `110.00 EUR`. */
export function formatMoney(amount: number, currency: string): string {
  const symbol = currency === 'USD' ? '$' : currency === 'CNY' ? '¥' : null;
  const sign = amount < 0 ? '-' : '';
  const digits = Math.abs(amount).toFixed(2);
  return symbol ? `${sign}${symbol}${digits}` : `${sign}${digits} ${currency}`;
}
