import type { WalletState } from '../../../shared/plugins/index.ts';
import { AmberError } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledWallet {
  id: string;
  provider: string;
  state: WalletState;
  refresh(): Promise<WalletState>;
}

export interface ListedWallet extends WalletState {
  id: string;
  provider: string;
  pluginId: string;
}

/** Balances with a provider, refreshed on demand. */
export class WalletRegistry extends ContributionRegistry<InstalledWallet> {
  constructor() {
    super('wallet');
  }

  list(): ListedWallet[] {
    return this.entries().map((e) => ({ id: e.value.id, provider: e.value.provider, ...e.value.state, pluginId: e.pluginId }));
  }

  /** A balance the plugin read on its own; only the plugin that registered the wallet may set it. */
  update(pluginId: string, id: string, state: WalletState): void {
    const held = this.get(id);
    if (!held || held.pluginId !== pluginId) throw new AmberError('not_found', `The plugin '${pluginId}' has no wallet '${id}' to update.`);
    this.replace(pluginId, id, { ...held.value, state });
  }

  async refresh(id: string): Promise<ListedWallet> {
    const held = this.get(id);
    if (!held) throw new AmberError('not_found', `There is no wallet '${id}'.`);
    const state = await held.value.refresh();
    // The plugin may have been switched off while it answered: then there is nothing left to update.
    if (this.get(id) === held) this.replace(held.pluginId, id, { ...held.value, state });
    return { id, provider: held.value.provider, ...state, pluginId: held.pluginId };
  }
}
