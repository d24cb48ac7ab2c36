import type { StatusSegment } from '../../../shared/plugins/index.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface ListedStatusSegment extends StatusSegment {
  pluginId: string;
}

/** Status bar segments as data, highest priority first; a plugin may update its own at any time. */
export class StatusSegmentRegistry extends ContributionRegistry<StatusSegment> {
  constructor() {
    super('status segment');
  }

  list(): ListedStatusSegment[] {
    return this.entries()
      .map((e) => ({ ...e.value, pluginId: e.pluginId }))
      .sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
  }

  update(pluginId: string, segment: StatusSegment): void {
    this.replace(pluginId, segment.id, segment);
  }
}
