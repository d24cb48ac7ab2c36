import type { WalletListing, WalletView } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { ListedWallet, WalletRegistry } from '../plugins/index.ts';
import type { SettingsService } from '../settings/index.ts';

export interface WalletServiceOptions {
  /** The wallets the active plugins contribute. */
  wallets: Pick<WalletRegistry, 'list' | 'refresh' | 'onDidChange'>;
  /** Where the low-balance threshold the user set is kept. */
  settings: SettingsService;
  clock?: () => number;
  /** The name of the saved account a provider id names, shown beside its wallet. Default: none. */
  accountName?: (providerId: string) => string | undefined;
}

/**
 * The wallets as the window sees them: each balance with when this run last saw it refreshed and the last
 * refresh's failure, and the user's low-balance threshold. Owns that view and announces each new one
 * (`onDidChange`): a registry change, a refresh (failed or not), a new threshold.
 */
export class WalletService implements Disposable {
  readonly #wallets: WalletServiceOptions['wallets'];
  readonly #settings: WalletServiceOptions['settings'];
  readonly #clock: () => number;
  readonly #accountName: (providerId: string) => string | undefined;
  readonly #subscriptions = new DisposableStore();
  readonly #changed = new Emitter<WalletListing>((e) => console.error('A wallet listener failed', e));
  /** Per wallet: when it was last refreshed, and the last refresh's failure, as this run saw them. */
  readonly #refreshed = new Map<string, { at: number | null; error: string | null; balance: number | null; currency: string }>();
  /** Wallets a refresh call is waiting on: the registry's change it causes is that refresh's one announcement. */
  readonly #refreshing = new Set<string>();
  /** Counts announcements, so a refresh the registry already announced is not announced twice. */
  #announced = 0;
  /** The wallets' new listing, after any change to what the window shows of them. */
  readonly onDidChange: Event<WalletListing> = this.#changed.event;

  constructor(options: WalletServiceOptions) {
    this.#wallets = options.wallets;
    this.#settings = options.settings;
    this.#clock = options.clock ?? Date.now;
    this.#accountName = options.accountName ?? (() => undefined);
    this.#subscriptions.add(
      this.#wallets.onDidChange(() => {
        // A balance that changed was just refreshed (by a panel, a tick or a refresh call). A wallet that
        // arrives with no balance known has not been read: it is not marked refreshed, so a panel reads it.
        for (const w of this.#wallets.list()) {
          const seen = this.#refreshed.get(w.id);
          const arrivedUnread = !seen && w.balance === null;
          if (this.#refreshing.has(w.id) || (!arrivedUnread && (!seen || seen.balance !== w.balance || seen.currency !== w.currency))) {
            this.#refreshed.set(w.id, { at: this.#clock(), error: null, balance: w.balance, currency: w.currency });
          }
        }
        this.#announce();
      }),
    );
  }

  listing(): WalletListing {
    return { wallets: this.#wallets.list().map((w) => this.#view(w)), threshold: this.threshold() };
  }

  threshold(): number | null {
    return this.#settings.get('ui.walletThreshold');
  }

  /** Reads the wallet's balance again; a failure is kept on its view (and announced), not thrown. */
  async refresh(id: string): Promise<WalletView> {
    const held = this.#wallets.list().find((w) => w.id === id);
    if (!held) throw new AmberError('not_found', `There is no wallet '${id}'; its plugin may have been switched off.`);
    const before = this.#announced;
    this.#refreshing.add(id);
    try {
      const fresh = await this.#wallets.refresh(id);
      // The registry announced the new balance while it stored it (and the listener above noted when), unless
      // the plugin went away meanwhile: the answer then carries the same time the window was sent.
      const noted = this.#announced !== before ? this.#refreshed.get(id) : undefined;
      this.#refreshed.set(id, { at: noted?.at ?? this.#clock(), error: null, balance: fresh.balance, currency: fresh.currency });
      if (this.#announced === before) this.#announce();
      return this.#view(fresh);
    } catch (e) {
      this.#refreshed.set(id, { at: this.#refreshed.get(id)?.at ?? null, error: errorMessage(e), balance: held.balance, currency: held.currency });
      this.#announce();
      return this.#view(held);
    } finally {
      this.#refreshing.delete(id);
    }
  }

  setThreshold(value: number | null): WalletListing {
    this.#settings.set('ui.walletThreshold', value);
    return this.#announce();
  }

  dispose(): void {
    this.#subscriptions.dispose();
    this.#changed.dispose();
  }

  #announce(): WalletListing {
    this.#announced++;
    const listing = this.listing();
    this.#changed.fire(listing);
    return listing;
  }

  #view(w: ListedWallet & { refreshedAt?: number; error?: string }): WalletView {
    // The plugin's own word on when it read the balance wins (it also reads on tick); else what this run saw.
    const seen = this.#refreshed.get(w.id);
    const account = this.#accountName(w.provider);
    return {
      id: w.id,
      provider: w.provider,
      ...(account !== undefined ? { account } : {}),
      pluginId: w.pluginId,
      balance: w.balance,
      currency: w.currency,
      refreshedAt: w.refreshedAt ?? seen?.at ?? null,
      error: w.error ?? seen?.error ?? null,
    };
  }
}
