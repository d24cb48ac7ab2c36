import { panelActionIds, type PanelViewModel } from '../../../shared/plugins/index.ts';
import { AmberError } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledPanel {
  view: PanelViewModel;
  action(actionId: string): Promise<void>;
}

export interface ListedPanel extends PanelViewModel {
  pluginId: string;
}

/** Panels as declarative view models; the renderer draws them and sends actions back by id. */
export class PanelRegistry extends ContributionRegistry<InstalledPanel> {
  constructor() {
    super('panel');
  }

  list(): ListedPanel[] {
    return this.entries().map((e) => ({ ...e.value.view, pluginId: e.pluginId }));
  }

  update(pluginId: string, view: PanelViewModel): void {
    const held = this.get(view.id);
    if (!held || held.pluginId !== pluginId) throw new AmberError('not_found', `The plugin '${pluginId}' has no panel '${view.id}' to update.`);
    this.replace(pluginId, view.id, { ...held.value, view });
  }

  async action(panelId: string, actionId: string): Promise<void> {
    const panel = this.get(panelId);
    if (!panel) throw new AmberError('not_found', `There is no panel '${panelId}'.`);
    if (!panelActionIds(panel.value.view).includes(actionId)) throw new AmberError('not_found', `The panel '${panelId}' has no action '${actionId}'.`);
    await panel.value.action(actionId);
  }
}
