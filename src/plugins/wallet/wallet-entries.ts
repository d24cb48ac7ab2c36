import type { AccountSettings, WalletAccount } from './wallet-accounts.ts';
import type { WalletConfig } from './wallet-config.ts';
import type { BalanceSource } from './wallet-reading.ts';

/**
 * One wallet the plugin offers: a kind of account (its balance endpoint) and where its key comes from —
 * the wallet's own settings (`openrouter.apiKey`, as before several accounts existed) or a saved connection
 * of Settings → Models, whose key main gives this plugin.
 */
export interface WalletEntry {
  /** The wallet's id in main's registry. */
  id: string;
  kind: WalletAccount;
  /** The provider id the wallet belongs to: a saved connection's id, which main names by the account's name. */
  provider: string;
  /** The panel's section and the status bar's word for it. */
  title: string;
  /** Null for the wallet's own settings; else the saved connection's id. */
  accountId: string | null;
  /** Why it has no wallet while it has no key, and what to do. */
  missingKey: string;
  /** What the panel says while it has no key. */
  notSetUp: string;
}

/**
 * The wallets for a config: per kind, its own settings' wallet when they hold a key (or when no saved
 * connection of that kind exists, to say what to set), then one per saved connection of that kind. The
 * wallet's own key keeps serving the kind's own connection (same id), so an existing wallet stays as it was.
 */
export function walletEntries(kinds: readonly WalletAccount[], cfg: WalletConfig): WalletEntry[] {
  const out: WalletEntry[] = [];
  for (const kind of kinds) {
    const ownKey = Boolean(cfg.accounts[kind.id]?.apiKey);
    const linked = cfg.providerAccounts.filter((a) => a.kind === kind.id);
    if (ownKey || linked.length === 0) {
      out.push({
        id: kind.id,
        kind,
        provider: kind.provider,
        title: kind.service,
        accountId: null,
        missingKey: `No API key is set for ${kind.service} (${kind.id}.apiKey).`,
        notSetUp: `Not set up: add your ${kind.service} API key in Settings → Plugins → Wallet → Settings (or /set plugin.wallet.${kind.id}.apiKey KEY).`,
      });
    }
    for (const a of linked) {
      if (ownKey && a.id === kind.id) continue;
      // An account whose id is another kind's own wallet id gets a prefix, so no two wallets share an id.
      const taken = kinds.some((k) => k !== kind && k.id === a.id);
      out.push({
        id: taken ? `account:${a.id}` : a.id,
        kind,
        provider: a.id,
        title: a.name,
        accountId: a.id,
        missingKey: `No API key is saved for the connection "${a.name}" (Settings → Models).`,
        notSetUp: `Not set up: the connection "${a.name}" has no API key; add one with Edit in Settings → Models.`,
      });
    }
  }
  return out;
}

/** The settings a read of this wallet uses now (config is read live): the saved connection's key and address, or the wallet's own. */
export function entrySettings(entry: WalletEntry, cfg: WalletConfig): AccountSettings {
  if (entry.accountId === null) return cfg.accounts[entry.id] ?? {};
  const account = cfg.providerAccounts.find((a) => a.id === entry.accountId);
  if (!account) return {};
  return { ...(account.apiKey ? { apiKey: account.apiKey } : {}), baseUrl: entry.kind.balanceBase(account.baseUrl) };
}

/** Who a reading is for, so its messages name the account and where to change its key or address. */
export function entrySource(entry: WalletEntry, url: string): BalanceSource {
  const base: BalanceSource = { service: entry.kind.service, configKey: entry.kind.id, url, ...(entry.kind.keyHint ? { keyHint: entry.kind.keyHint } : {}) };
  if (entry.accountId === null) return base;
  const where = `the connection "${entry.title}" in Settings → Models`;
  return {
    ...base,
    service: entry.title === entry.kind.service ? entry.kind.service : `${entry.title} (${entry.kind.service})`,
    keySetting: `the API key of ${where}`,
    baseUrlSetting: `the base URL of ${where}`,
  };
}
