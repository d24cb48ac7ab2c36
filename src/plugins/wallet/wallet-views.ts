import type { PanelViewModel, StatusSegment } from '../../workers/sdk/index.ts';
import type { WalletAccount } from './wallet-accounts.ts';
import { formatMoney, type WalletReading } from './wallet-reading.ts';

export const WALLET_PANEL_ID = 'wallet';
export const WALLET_SEGMENT_ID = 'wallet';
export const REFRESH_ACTION_ID = 'refresh';

/** What the plugin knows about one account at the moment a view is drawn. */
export interface AccountView {
  account: WalletAccount;
  /** The wallet's name when it is not the service's (a saved connection's name). */
  title?: string;
  /** What to say while it has no key, when not the wallet's own setting. */
  notSetUp?: string;
  /** False when the account has no key: it is listed with what to set, and has no wallet. */
  configured: boolean;
  /** The newest reading, good or not; null before the first. */
  reading: WalletReading | null;
  /** When the newest reading was taken (epoch ms). */
  readAt: number | null;
  /** The newest good balance, kept to show beside a later error. */
  lastGood: { balance: number; currency: string; at: number } | null;
  warnBelow: number;
}

type Row = PanelViewModel['sections'][number]['rows'][number];

/** Warnings for one account: an error, a balance under the threshold, or a balance that cannot pay. */
export function accountWarnings(v: AccountView): string[] {
  const out: string[] = [];
  if (v.reading && !v.reading.ok) out.push(v.reading.error);
  const good = v.lastGood;
  if (good && good.balance < v.warnBelow) {
    out.push(`The balance is below ${formatMoney(v.warnBelow, good.currency)}. Add money at ${v.account.topUpUrl}.`);
  }
  if (v.reading?.ok && !v.reading.available && !(good && good.balance < v.warnBelow)) {
    out.push(`${titleOf(v)} says this balance cannot pay for API calls. Add money at ${v.account.topUpUrl}.`);
  }
  return out;
}

/** The wallets panel: per account its balance, currency, last refresh and warnings; one refresh action. */
export function walletPanel(views: AccountView[], notes: string[], formatTime: (epochMs: number) => string): PanelViewModel {
  const sections: PanelViewModel['sections'] = views.map((v) => {
    if (!v.configured) {
      return {
        title: titleOf(v),
        rows: [
          {
            type: 'text',
            text:
              v.notSetUp ??
              `Not set up: add your ${v.account.service} API key in Settings → Plugins → Wallet → Settings (or /set plugin.wallet.${v.account.id}.apiKey KEY).`,
          },
        ],
      };
    }
    const good = v.lastGood;
    const rows: Row[] = [
      { type: 'keyValue', key: 'Balance', value: good ? formatMoney(good.balance, good.currency) : unknownBalance(v) },
      { type: 'keyValue', key: 'Currency', value: good?.currency ?? v.account.defaultCurrency },
      { type: 'keyValue', key: 'Last refresh', value: lastRefresh(v, formatTime) },
    ];
    if (v.reading?.ok) for (const d of v.reading.details) rows.push({ type: 'keyValue', key: d.key, value: d.value });
    for (const w of accountWarnings(v)) rows.push({ type: 'text', text: `⚠ ${w}` });
    return { title: titleOf(v), rows };
  });
  if (notes.length) sections.push({ title: 'Settings', rows: notes.map((text) => ({ type: 'text' as const, text })) });
  const anyConfigured = views.some((v) => v.configured);
  return { id: WALLET_PANEL_ID, title: 'Wallets', sections, actions: anyConfigured ? [{ id: REFRESH_ACTION_ID, label: 'Refresh balances' }] : [] };
}

/** `OpenRouter $74.75 · DeepSeek ¥110.00`, marked ⚠ when any account needs attention. */
export function walletSegment(views: AccountView[], formatTime: (epochMs: number) => string): StatusSegment {
  const configured = views.filter((v) => v.configured);
  if (configured.length === 0) {
    return {
      id: WALLET_SEGMENT_ID,
      // Nothing to say: the status bar leaves an empty segment out.
      text: '',
      tooltip: 'No provider account is set up: add an OpenRouter or DeepSeek API key in Settings → Plugins → Wallet → Settings.',
      priority: 20,
    };
  }
  const warn = configured.some((v) => accountWarnings(v).length > 0);
  const text = configured.map((v) => `${titleOf(v)} ${v.lastGood ? formatMoney(v.lastGood.balance, v.lastGood.currency) : 'balance unknown'}`).join(' · ');
  const tooltip = configured.map((v) => [`${titleOf(v)}: ${lastRefresh(v, formatTime)}`, ...accountWarnings(v)].join('\n  ')).join('\n');
  return { id: WALLET_SEGMENT_ID, text: `${warn ? '⚠ ' : ''}${text}`, tooltip, priority: 20 };
}

function titleOf(v: AccountView): string {
  return v.title ?? v.account.service;
}

/** A balance never read successfully: unknown, with why — never a zero. */
function unknownBalance(v: AccountView): string {
  return v.reading && !v.reading.ok ? '— (unknown: the read failed)' : '— (unknown: not read yet)';
}

function lastRefresh(v: AccountView, formatTime: (epochMs: number) => string): string {
  if (v.readAt === null) return 'not yet';
  if (v.reading && !v.reading.ok) return `${formatTime(v.readAt)} (failed${v.lastGood ? `; balance as of ${formatTime(v.lastGood.at)}` : ''})`;
  return formatTime(v.readAt);
}
