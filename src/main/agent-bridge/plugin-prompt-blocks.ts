import type { PromptBlock } from '../agent/index.ts';
import type { PromptBlockRegistry } from '../plugins/index.ts';

/**
 * The plugins' prompt blocks as the agent sees them. The agent orders them (ascending priority, ties in
 * insertion order) and skips a block that throws; each render is a call into the plugin's process. The
 * sources a block names carry its plugin's id.
 */
export function pluginPromptBlocks(blocks: PromptBlockRegistry, workspace: (sessionId: string) => string): () => readonly PromptBlock[] {
  return () =>
    blocks.entries().map(({ pluginId, value }) => ({
      id: `${pluginId}:${value.id}`,
      position: value.position,
      priority: value.priority,
      ...(value.cache ? { cache: value.cache } : {}),
      render: async ({ sessionId, prompt }) => {
        const rendered = await value.render({ sessionId, workspace: workspace(sessionId), ...(prompt !== undefined ? { prompt } : {}) });
        if (typeof rendered === 'string') return rendered;
        // What the block drew on, named by its plugin: the window opens each one through that plugin's command.
        return { text: rendered.text, sources: (rendered.sources ?? []).map((s) => ({ pluginId, id: s.id, label: s.label })) };
      },
    }));
}
