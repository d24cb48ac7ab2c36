import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { allowanceViews } from './allowance-views.ts';
import type { Handlers } from './api-router.ts';
import { panelViews } from './panel-views.ts';

type PanelChannels = 'panels.list' | 'panels.opened' | 'panels.action' | 'wallets.list' | 'wallets.refresh' | 'wallets.setThreshold' | 'allowances.list';

/**
 * The plugins' panels, wallets and allowances over their registries and the wallet service. Their owners
 * announce each change (see window-events.ts), so every window redraws without asking.
 */
export function createPanelRoutes(app: App): Disposable & { handlers: Pick<Handlers, PanelChannels> } {
  const registries = app.plugins.registries;
  return {
    handlers: {
      'panels.list': () => panelViews(registries.panels),
      'panels.opened': async ({ panelId }) => ({ started: await app.plugins.panelOpened(panelId) }),
      'panels.action': async ({ panelId, actionId }) => {
        await registries.panels.action(panelId, actionId);
        return { ok: true as const };
      },
      'wallets.list': () => app.wallets.listing(),
      'wallets.refresh': ({ id }) => app.wallets.refresh(id),
      'wallets.setThreshold': ({ threshold }) => app.wallets.setThreshold(threshold),
      'allowances.list': () => allowanceViews(registries.allowances, (id) => app.providers.list().find((a) => a.id === id)?.name),
    },
    dispose: () => {},
  };
}
