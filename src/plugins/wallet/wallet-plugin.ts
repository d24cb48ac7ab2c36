import { decline, type DefinedPlugin, definePlugin, type PluginContext, type PluginContribution, type WalletState } from '../../workers/sdk/index.ts';
import { fetchBalance } from './balance-client.ts';
import { balanceUrl, WALLET_ACCOUNTS, type WalletAccount } from './wallet-accounts.ts';
import { readWalletConfig, type WalletConfig } from './wallet-config.ts';
import { entrySettings, entrySource, type WalletEntry, walletEntries } from './wallet-entries.ts';
import { failed, type WalletReading } from './wallet-reading.ts';
import { type AccountView, REFRESH_ACTION_ID, walletPanel, walletSegment } from './wallet-views.ts';

export interface WalletPluginSeams {
  /** Epoch milliseconds. */
  now?: () => number;
  fetch?: typeof globalThis.fetch;
  accounts?: readonly WalletAccount[];
}

/** What a refresh answers: a failed refresh keeps the last good balance and says why beside it, instead of failing the call. */
export interface WalletRefresh extends WalletState {
  refreshedAt: number;
  available: boolean;
  error?: string;
}

interface AccountState {
  entry: WalletEntry;
  configured: boolean;
  reading: WalletReading | null;
  readAt: number | null;
  lastGood: { balance: number; currency: string; at: number } | null;
  inFlight: Promise<WalletRefresh> | null;
}

/**
 * Balances of provider accounts (OpenRouter credits, DeepSeek balance): one wallet per account that has an
 * API key — the wallet's own settings' and each saved connection's (see walletEntries) — refreshed on main's tick once `refreshMinutes` old and on demand; a panel and a status segment.
 */
export function createWalletPlugin(seams: WalletPluginSeams = {}): DefinedPlugin {
  const now = seams.now ?? Date.now;
  const accounts = seams.accounts ?? WALLET_ACCOUNTS;
  const ids = accounts.map((a) => a.id);
  let ctx: PluginContext | null = null;
  let lastConfig: WalletConfig = readWalletConfig({}, ids);
  const states = new Map<string, AccountState>();

  const config = async (): Promise<WalletConfig> => {
    const cfg = readWalletConfig(ctx ? await ctx.configAll() : {}, ids);
    for (const p of cfg.problems) if (!lastConfig.problems.includes(p)) ctx?.log.warn(p);
    lastConfig = cfg;
    return cfg;
  };

  const views = (): AccountView[] =>
    [...states.values()].map((s) => ({
      account: s.entry.kind,
      ...(s.entry.accountId !== null ? { title: s.entry.title, notSetUp: s.entry.notSetUp } : {}),
      configured: s.configured,
      reading: s.reading,
      readAt: s.readAt,
      lastGood: s.lastGood,
      warnBelow: (s.entry.accountId === null ? lastConfig.accounts[s.entry.id]?.warnBelow : undefined) ?? lastConfig.warnBelow,
    }));

  /** Must not throw: it runs after every refresh. */
  const refreshViews = () => {
    if (!ctx) return;
    const v = views();
    ctx.updatePanel(walletPanel(v, lastConfig.problems, formatTime));
    ctx.updateStatus(walletSegment(v, formatTime));
  };

  const read = async (state: AccountState): Promise<WalletRefresh> => {
    const cfg = await config();
    const { kind } = state.entry;
    const settings = entrySettings(state.entry, cfg);
    const source = entrySource(state.entry, balanceUrl(kind, settings));
    const reading = settings.apiKey
      ? await fetchBalance(source, (body) => kind.parse(source, body, settings), {
          apiKey: settings.apiKey,
          timeoutMs: cfg.timeoutMs,
          fetch: seams.fetch,
        })
      : failed(
          'no_key',
          state.entry.accountId === null ? `No API key is set for ${kind.service}: add one in Settings → Plugins → Wallet → Settings.` : state.entry.missingKey,
        );
    const at = now();
    state.reading = reading;
    state.readAt = at;
    if (reading.ok) state.lastGood = { balance: reading.balance, currency: reading.currency, at };
    else ctx?.log.warn(reading.error);
    refreshViews();
    const shown = state.lastGood ?? { balance: null, currency: kind.defaultCurrency };
    const result: WalletRefresh = reading.ok
      ? { balance: reading.balance, currency: reading.currency, refreshedAt: at, available: reading.available }
      : { balance: shown.balance, currency: shown.currency, refreshedAt: at, available: false, error: reading.error };
    // A read on tick is news to main too: its wallet registry (and the wallets panel) shows it at once.
    if (state.configured) ctx?.updateWallet(state.entry.id, result);
    return result;
  };

  /** One request per account at a time: a refresh asked while one runs gets that one's answer. */
  const refresh = (state: AccountState): Promise<WalletRefresh> => {
    if (!state.inFlight) state.inFlight = read(state).finally(() => (state.inFlight = null));
    return state.inFlight;
  };

  const refreshAll = async (actionId: string) => {
    if (actionId !== REFRESH_ACTION_ID) return;
    await Promise.all([...states.values()].filter((s) => s.configured).map((s) => refresh(s)));
  };

  return definePlugin({
    manifest: { id: 'wallet', version: '1.0.0' },

    async initialize(context) {
      ctx = context;
      const cfg = await config();
      states.clear();
      for (const entry of walletEntries(accounts, cfg)) {
        states.set(entry.id, { entry, configured: Boolean(entrySettings(entry, cfg).apiKey), reading: null, readAt: null, lastGood: null, inFlight: null });
      }
      return true;
    },

    async shutdown() {
      ctx = null;
    },

    /** Reads every account whose balance is older than `refreshMinutes` (or never read). */
    async tick() {
      const cfg = await config();
      const due = [...states.values()].filter((s) => s.configured && (s.readAt === null || now() - s.readAt >= cfg.refreshMinutes * 60_000));
      await Promise.all(due.map((s) => refresh(s)));
    },

    async capabilities() {
      const contributions: PluginContribution[] = [];
      for (const s of states.values()) {
        if (!s.configured) {
          contributions.push(decline('wallet', s.entry.id, s.entry.missingKey));
          continue;
        }
        contributions.push({
          kind: 'wallet',
          id: s.entry.id,
          provider: s.entry.provider,
          // Not read yet: unknown, not zero.
          balance: null,
          currency: s.entry.kind.defaultCurrency,
          refresh: () => refresh(s),
        });
      }
      const v = views();
      contributions.push(
        { kind: 'panel', ...walletPanel(v, lastConfig.problems, formatTime), onAction: refreshAll },
        { kind: 'statusSegment', ...walletSegment(v, formatTime) },
      );
      return contributions;
    },
  });
}

/** `2026-11-30 05:31:02`, local time. */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
