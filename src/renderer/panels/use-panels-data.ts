import { useEffect, useState } from 'react';
import type { AllowanceView, PanelView, WalletListing } from '../../shared/api/index.ts';
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
