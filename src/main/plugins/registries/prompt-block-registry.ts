import type { PromptBlockContext, RenderedBlock } from '../../../shared/plugins/index.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledPromptBlock {
  id: string;
  position: 'head' | 'tail';
  priority: number;
  /** 'run': rendered once a run until a new user message (see PromptBlockDeclaration). */
  cache?: 'run';
  /** Checked as it arrives from the plugin: text, or text and the things it drew on. */
  render(context: PromptBlockContext): Promise<RenderedBlock>;
}

/**
 * Prompt blocks by id. They are ordered and rendered by the agent's prompt assembly (ascending priority,
 * ties in insertion order; see src/main/agent/prompt-assembly.ts), reached through agent-bridge's
 * pluginPromptBlocks — the one path, so tests go through it too.
 */
export class PromptBlockRegistry extends ContributionRegistry<InstalledPromptBlock> {
  constructor() {
    super('prompt block');
  }
}
