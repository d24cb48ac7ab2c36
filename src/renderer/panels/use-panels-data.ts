import { useEffect, useState } from 'react';
import type { AllowanceView, PanelView, PluginListing, WalletListing } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';

/** Loads once, then takes every update main pushes (the events carry the whole list). */
function useLive<T>(initial: T, load: (api: ReturnType<typeof useApi>) => Promise<T>, listen: (api: ReturnType<typeof useApi>, set: (v: T) => void) => () => void): [T, (v: T) => void] {
  const api = useApi();
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    let live = true;
    const set = (v: T) => live && setValue(v);
    load(api).then(set, () => {});
    const off = listen(api, set);
    const offReconnect = api.onConnectionChange((connected) => connected && void load(api).then(set, () => {}));
    return () => {
      live = false;
      off();
      offReconnect();
    };
  }, [api, load, listen]);
  return [value, setValue];
}

const loadPanels = (api: ReturnType<typeof useApi>) => api.call('panels.list', {});
const listenPanels = (api: ReturnType<typeof useApi>, set: (v: PanelView[]) => void) => api.on('panels.changed', (e) => set(e.panels));
export const usePanels = () => useLive<PanelView[]>([], loadPanels, listenPanels)[0];

const loadWallets = (api: ReturnType<typeof useApi>) => api.call('wallets.list', {});
const listenWallets = (api: ReturnType<typeof useApi>, set: (v: WalletListing) => void) => api.on('wallets.changed', set);
export const useWallets = () => useLive<WalletListing>({ wallets: [], threshold: null }, loadWallets, listenWallets);

const loadAllowances = (api: ReturnType<typeof useApi>) => api.call('allowances.list', {});
const listenAllowances = (api: ReturnType<typeof useApi>, set: (v: AllowanceView[]) => void) => api.on('allowances.changed', (e) => set(e.allowances));
export const useAllowances = () => useLive<AllowanceView[]>([], loadAllowances, listenAllowances)[0];

export type Concept = 'wallet' | 'allowance';

const loadPlugins = (api: ReturnType<typeof useApi>) => api.call('plugins.list', {}).then((l) => l.plugins);
const listenPlugins = (api: ReturnType<typeof useApi>, set: (v: PluginListing['plugins']) => void) => {
  // The event carries one plugin; the whole list is read again (a handful of plugins, rarely).
  return api.on('plugins.changed', () => void loadPlugins(api).then(set, () => {}));
};
const usePlugins = () => useLive<PluginListing['plugins']>([], loadPlugins, listenPlugins)[0];

/**
 * The concept each plugin's panels belong to: a plugin that offers wallets (or allowances), and no other of
 * the two, speaks about them in its panel, so that panel is drawn inside the app's card for the concept
 * instead of as a second card of the same name. Declined offers count: they are why a card would be empty.
 */
export function usePanelConcepts(): Map<string, Concept> {
  const plugins = usePlugins();
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
