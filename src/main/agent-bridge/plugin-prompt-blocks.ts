import type { PromptBlock } from '../agent/index.ts';
import type { PromptBlockRegistry } from '../plugins/index.ts';

/**
 * The plugins' prompt blocks as the agent sees them. The agent orders them (ascending priority, ties in
 * insertion order) and skips a block that throws; each render is a call into the plugin's process.
 */
export function pluginPromptBlocks(blocks: PromptBlockRegistry, workspace: (sessionId: string) => string): () => readonly PromptBlock[] {
  return () =>
    blocks.entries().map(({ pluginId, value }) => ({
      id: `${pluginId}:${value.id}`,
      position: value.position,
      priority: value.priority,
      render: ({ sessionId, prompt }) => value.render({ sessionId, workspace: workspace(sessionId), ...(prompt !== undefined ? { prompt } : {}) }),
    }));
}
