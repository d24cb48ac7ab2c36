import type { PanelView } from '../../shared/api/index.ts';
import type { PanelRegistry } from '../plugins/index.ts';

/** The plugins' panels as the window draws them. */
export function panelViews(panels: Pick<PanelRegistry, 'list'>): PanelView[] {
  return panels.list().map((p) => ({ id: p.id, title: p.title, sections: p.sections, actions: p.actions, pluginId: p.pluginId }));
}
