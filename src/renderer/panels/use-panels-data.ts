import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AllowanceView, PanelView, PluginListing, WalletListing } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys, usePluginListing } from '../server-state/index.ts';

const NO_PANELS: PanelView[] = [];
const NO_WALLETS: WalletListing = { wallets: [], threshold: null };
const NO_ALLOWANCES: AllowanceView[] = [];
const NO_PLUGINS: PluginListing['plugins'] = [];

/** The plugins' panels; panels.changed replaces them in the cache. */
export function usePanels(): PanelView[] {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.panels, queryFn: () => api.call('panels.list', {}) }).data ?? NO_PANELS;
}

/** The wallets and the warning threshold, and a setter for a listing main answered with. */
export function useWallets(): [WalletListing, (listing: WalletListing) => void] {
  const api = useApi();
  const queries = useQueryClient();
  const listing = useQuery({ queryKey: serverKeys.wallets, queryFn: () => api.call('wallets.list', {}) }).data ?? NO_WALLETS;
  const set = useCallback((next: WalletListing) => queries.setQueryData(serverKeys.wallets, next), [queries]);
  return [listing, set];
}

export function useAllowances(): AllowanceView[] {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.allowances, queryFn: () => api.call('allowances.list', {}) }).data ?? NO_ALLOWANCES;
}

export type Concept = 'wallet' | 'allowance';

/**
 * The concept each plugin's panels belong to: a plugin that offers wallets (or allowances), and no other of
 * the two, speaks about them in its panel, so that panel is drawn inside the app's card for the concept
 * instead of as a second card of the same name. Declined offers count: they are why a card would be empty.
 */
export function usePanelConcepts(): Map<string, Concept> {
  const plugins = usePluginListing().data?.plugins ?? NO_PLUGINS;
  const out = new Map<string, Concept>();
  for (const p of plugins) {
    if (p.state !== 'active') continue;
    const kinds = new Set(p.contributions.map((c) => c.kind));
    const wallet = kinds.has('wallet');
    const allowance = kinds.has('allowance');
    if (wallet !== allowance) out.set(p.id, wallet ? 'wallet' : 'allowance');
  }
  return out;
}
