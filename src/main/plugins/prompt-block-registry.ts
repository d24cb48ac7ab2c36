import type { PromptBlockContext } from '../../shared/plugins/plugin-api.ts';
import { errorMessage } from '../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface PromptBlockContribution {
  id: string;
  position: 'head' | 'tail';
  priority: number;
  render(context: PromptBlockContext): Promise<string>;
}

export interface RenderedBlock {
  id: string;
  pluginId: string;
  priority: number;
  text: string;
}

export interface RenderedBlocks {
  head: RenderedBlock[];
  tail: RenderedBlock[];
  /** Blocks that failed to render are left out and named here; rendering never throws. */
  errors: { id: string; pluginId: string; message: string }[];
}

const byPriority = (a: RenderedBlock, b: RenderedBlock) => b.priority - a.priority || a.id.localeCompare(b.id);

/** Prompt blocks by id; rendered together, highest priority first within head and tail. */
export class PromptBlockRegistry extends ContributionRegistry<PromptBlockContribution> {
  constructor() {
    super('prompt block');
  }

  async render(context: PromptBlockContext): Promise<RenderedBlocks> {
    const entries = this.entries();
    const results = await Promise.allSettled(entries.map((e) => e.value.render(context)));
    const out: RenderedBlocks = { head: [], tail: [], errors: [] };
    results.forEach((r, i) => {
      const { pluginId, value } = entries[i]!;
      if (r.status === 'rejected') out.errors.push({ id: value.id, pluginId, message: errorMessage(r.reason) });
      else if (r.value) out[value.position].push({ id: value.id, pluginId, priority: value.priority, text: r.value });
    });
    out.head.sort(byPriority);
    out.tail.sort(byPriority);
    return out;
  }
}
