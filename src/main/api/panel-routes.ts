import type { AllowanceView, EventName, EventPayload, PanelView, WalletListing, WalletView } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { Handlers } from './api-router.ts';

export interface PanelRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  clock?: () => number;
}

type PanelChannels = 'panels.list' | 'panels.opened' | 'panels.action' | 'wallets.list' | 'wallets.refresh' | 'wallets.setThreshold' | 'allowances.list';

const WALLET_THRESHOLD_KEY = 'ui.walletThreshold';
const MONEY_UNITS = new Set(['usd', 'eur', 'gbp', 'cny', 'jpy', '$', '€', '£', 'money', 'dollars', 'credits']);

/**
 * The plugins' panels, wallets and allowances over their registries. Registry changes become events, so
 * every window redraws without asking.
 */
export function createPanelRoutes(app: App, options: PanelRoutesOptions): Disposable & { handlers: Pick<Handlers, PanelChannels> } {
  const { sessions } = app;
  const registries = app.plugins.registries;
  const emit = options.emit;
  const clock = options.clock ?? Date.now;
  const subscriptions = new DisposableStore();

  // Wallets: when each was last refreshed, and the last refresh's failure, as this run saw them.
  const refreshed = new Map<string, { at: number | null; error: string | null; balance: number; currency: string }>();

  const panels = (): PanelView[] => registries.panels.list().map((p) => ({ id: p.id, title: p.title, sections: p.sections, actions: p.actions, pluginId: p.pluginId }));
  const threshold = (): number | null => {
    const raw = sessions.getSetting(WALLET_THRESHOLD_KEY);
    const value = raw === null ? null : Number(raw);
    return value !== null && Number.isFinite(value) ? value : null;
  };
  const walletView = (w: { id: string; provider: string; pluginId: string; balance: number; currency: string; refreshedAt?: number; error?: string }): WalletView => {
    // The plugin's own word on when it read the balance wins (it also reads on tick); else what this run saw.
    const seen = refreshed.get(w.id);
    return { id: w.id, provider: w.provider, pluginId: w.pluginId, balance: w.balance, currency: w.currency, refreshedAt: w.refreshedAt ?? seen?.at ?? null, error: w.error ?? seen?.error ?? null };
  };
  const wallets = (): WalletListing => ({ wallets: registries.wallets.list().map(walletView), threshold: threshold() });
  const allowances = (): AllowanceView[] =>
    // An allowance that limits nothing is not listed: a bar at 0% of nothing would claim a limit.
    registries.allowances.list().filter((a) => !a.inactive).map((a) => {
      const unit = a.unit.toLowerCase();
      return {
        id: a.id,
        pluginId: a.pluginId,
        spent: a.spent,
        limit: a.limit,
        unit: a.unit,
        measure: MONEY_UNITS.has(unit) ? ('money' as const) : unit === 'tokens' || unit === 'token' ? ('tokens' as const) : ('other' as const),
        scope: a.scope,
        period: a.period ?? null,
        resetsAt: a.resetsAt ?? null,
      };
    });

  subscriptions.add(registries.panels.onDidChange(() => emit('panels.changed', { panels: panels() })));
  subscriptions.add(
    registries.wallets.onDidChange(() => {
      // A balance that changed was just refreshed (by a panel, a tick or a refresh call).
      for (const w of registries.wallets.list()) {
        const seen = refreshed.get(w.id);
        if (!seen || seen.balance !== w.balance || seen.currency !== w.currency) refreshed.set(w.id, { at: clock(), error: null, balance: w.balance, currency: w.currency });
      }
      emit('wallets.changed', wallets());
    }),
  );
  subscriptions.add(registries.allowances.onDidChange(() => emit('allowances.changed', { allowances: allowances() })));

  return {
    handlers: {
      'panels.list': () => panels(),
      'panels.opened': async ({ panelId }) => ({ started: await app.plugins.panelOpened(panelId) }),
      'panels.action': async ({ panelId, actionId }) => {
        await registries.panels.action(panelId, actionId);
        return { ok: true as const };
      },
      'wallets.list': () => wallets(),
      'wallets.refresh': async ({ id }) => {
        const held = registries.wallets.list().find((w) => w.id === id);
        if (!held) throw new AmberError('not_found', `There is no wallet '${id}'; its plugin may have been switched off.`);
        try {
          const fresh = await registries.wallets.refresh(id);
          refreshed.set(id, { at: clock(), error: null, balance: fresh.balance, currency: fresh.currency });
          emit('wallets.changed', wallets());
          return walletView(fresh);
        } catch (e) {
          refreshed.set(id, { at: refreshed.get(id)?.at ?? null, error: errorMessage(e), balance: held.balance, currency: held.currency });
          emit('wallets.changed', wallets());
          return walletView(held);
        }
      },
      'wallets.setThreshold': ({ threshold: value }) => {
        sessions.setSetting(WALLET_THRESHOLD_KEY, value === null ? null : String(value));
        const next = wallets();
        emit('wallets.changed', next);
        return next;
      },
      'allowances.list': () => allowances(),
    },
    dispose: () => subscriptions.dispose(),
  };
}
