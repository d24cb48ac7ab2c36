import { Children, type ReactNode, useEffect, useRef, useState } from 'react';
import type { WalletView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { useWallets } from './use-panels-data.ts';

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

function refreshedText(w: WalletView): string {
  if (w.refreshedAt === null) return w.error ? 'the last refresh failed' : 'not refreshed yet';
  const time = new Date(w.refreshedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return w.error ? `refresh failed ${time}` : `refreshed ${time}`;
}

/** Each provider account's balance, when it was last refreshed, a refresh button, and a warning under the threshold. */
export function WalletsPanel({ children }: { children?: ReactNode }) {
  const api = useApi();
  const toasts = useToasts();
  const [listing, setListing] = useWallets();
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [draft, setDraft] = useState<string | null>(null);
  const threshold = listing.threshold;
  // A wallet this run has not refreshed yet is refreshed once when the panel shows it.
  const asked = useRef(new Set<string>());
  useEffect(() => {
    for (const w of listing.wallets) {
      if (w.refreshedAt !== null || w.error !== null || asked.current.has(w.id)) continue;
      asked.current.add(w.id);
      api.call('wallets.refresh', { id: w.id }).catch(() => {});
    }
  }, [api, listing.wallets]);

  const refresh = async (w: WalletView) => {
    setBusy((b) => new Set(b).add(w.id));
    try {
      await api.call('wallets.refresh', { id: w.id });
    } catch (e) {
      toasts.error(`Could not refresh ${w.account ?? w.provider}`, e);
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(w.id);
        return next;
      });
    }
  };

  const saveThreshold = async () => {
    if (draft === null) return;
    const value = draft.trim() === '' ? null : Number(draft);
    setDraft(null);
    if (value !== null && (!Number.isFinite(value) || value < 0)) {
      toasts.push({ kind: 'error', title: 'The warning threshold must be a number of 0 or more' });
      return;
    }
    try {
      setListing(await api.call('wallets.setThreshold', { threshold: value }));
    } catch (e) {
      toasts.error('Could not save the threshold', e);
    }
  };

  return (
    <section className="side-card" data-testid="wallets-panel" aria-labelledby="wallets-title">
      <header className="side-card-head">
        <h3 id="wallets-title">Wallets</h3>
        <label className="threshold">
          <span>Warn below</span>
          <input
            inputMode="decimal"
            aria-label="Warn when a balance is below"
            data-testid="wallet-threshold"
            placeholder="—"
            value={draft ?? (threshold === null ? '' : String(threshold))}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => void saveThreshold()}
            onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
          />
        </label>
      </header>
      {listing.wallets.length === 0 && Children.count(children) === 0 && (
        <p className="side-empty">No wallet: a plugin such as Wallet shows provider balances here.</p>
      )}
      {listing.wallets.map((w) => {
        const known = w.balance !== null;
        const low = threshold !== null && w.balance !== null && w.balance < threshold;
        return (
          <div key={w.id} className={`wallet${low ? ' is-low' : ''}`} data-testid="wallet" data-id={w.id}>
            <div className="wallet-line">
              <span className="wallet-name">{w.account ?? w.provider}</span>
              {known ? (
                <span className="wallet-balance">{formatMoney(w.balance!, w.currency)}</span>
              ) : (
                <span className="wallet-balance is-unknown" title="The balance is not known" data-testid="wallet-unknown">
                  —
                </span>
              )}
              <button
                type="button"
                className="icon-btn"
                aria-label={`Refresh ${w.account ?? w.provider}`}
                title="Refresh"
                aria-disabled={busy.has(w.id) || undefined}
                onClick={() => !busy.has(w.id) && void refresh(w)}
                data-testid="wallet-refresh"
              >
                {busy.has(w.id) ? <span className="spinner" /> : <Icon name="refresh" size={14} />}
              </button>
            </div>
            <div className="wallet-meta">
              <span>{known ? w.currency : 'balance unknown'}</span>
              <span>·</span>
              <span data-testid="wallet-refreshed">{refreshedText(w)}</span>
            </div>
            {low && (
              <div className="side-warning" role="status" data-testid="wallet-warning">
                <Icon name="alert" size={13} /> Below your warning of {formatMoney(threshold, w.currency)}.
              </div>
            )}
            {w.error && (
              <div className="side-error" role="status">
                <Icon name="alert" size={13} /> {w.error}
              </div>
            )}
          </div>
        );
      })}
      {children}
    </section>
  );
}
