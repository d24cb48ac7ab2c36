import { join } from 'node:path';
import { type DefinedPlugin, definePlugin, type PluginContext, type ToolCallOptions } from '../../workers/sdk/index.ts';
import type { EmbeddingClientOptions } from './embedding-client.ts';
import { readEmbeddingConfig } from './embedding-config.ts';
import { indexesPanel } from './indexes-panel.ts';
import { createRepoMapTool } from './repo-map-tool.ts';
import type { SearchIndexService } from './search-index-service.ts';
import { isIndexDamage } from './is-index-damage.ts';
import { createSearchTool } from './search-tool.ts';
import { SemanticIndexes, type SemanticIndexesOptions } from './semantic-indexes.ts';
import { semanticSection } from './semantic-section.ts';
import { indexFileName, UNUSED_AFTER_MS, WorkspaceIndexes } from './workspace-indexes.ts';

export interface WorkspaceSearchSeams {
  /** How long a search waits for a building index before grep answers (default 1000 ms). */
  indexWaitMs?: number;
  /** An index unused for longer is removed when the plugin starts (default 30 days). */
  unusedAfterMs?: number;
  /** Epoch milliseconds. */
  now?: () => number;
  /** The embeddings endpoint's client (time limit, fetch) and the vectors' batches, polling and retries. */
  embeddings?: { client?: EmbeddingClientOptions; index?: SemanticIndexesOptions['index'] };
}

/** How often the Settings row is redrawn while an index is being built. */
const PROGRESS_MS = 1000;

/**
 * The `search` and `repo_map` tools over an index per workspace, kept in this plugin's own process and data folder
 * (`<plugin data>/indexes/<hash of the real path>.sqlite`, a cache). The workspace comes with each call, as
 * for the workspace tools; a call without one is refused. Its Settings row lists each workspace's index (state,
 * size, last update) with Rebuild.
 */
export function createWorkspaceSearchPlugin(seams: WorkspaceSearchSeams = {}): DefinedPlugin {
  const now = seams.now ?? Date.now;
  const unusedAfterMs = seams.unusedAfterMs ?? UNUSED_AFTER_MS;
  let indexes = new WorkspaceIndexes(null);
  let semantic = new SemanticIndexes({ folder: null, config: null });
  let ctx: PluginContext | null = null;
  let progress: NodeJS.Timeout | null = null;
  const panel = () => {
    const view = indexesPanel(indexes.views(), now(), Math.round(unusedAfterMs / 86_400_000));
    return { ...view, sections: [...view.sections, semanticSection(semantic.views(), semantic.off, semantic.model, now())] };
  };
  /** Redraws the Settings row, and again every second while an index is being built. Must not throw. */
  const refresh = () => {
    try {
      ctx?.updatePanel(panel());
    } catch {
      // A closed connection: nothing to redraw.
    }
    if ((indexes.building || semantic.busy) && !progress) {
      progress = setInterval(() => {
        if (!indexes.building && !semantic.busy && progress) {
          clearInterval(progress);
          progress = null;
        }
        try {
          ctx?.updatePanel(panel());
        } catch {
          // As above.
        }
      }, PROGRESS_MS);
      progress.unref();
    }
  };
  const toolOptions = {
    indexOf: (root: string, isDenied: (path: string) => boolean) => indexes.get(root, isDenied),
    indexWaitMs: seams.indexWaitMs,
    semanticOf: (index: SearchIndexService) => semantic.of(index) ?? semantic.off ?? '',
    // An index file found damaged in use (a page spoiled on disk) is deleted and built again, as Rebuild does.
    recover: (index: SearchIndexService, error: unknown) => {
      if (!isIndexDamage(error)) return false;
      const file = indexFileName(index.root);
      semantic.forget(file);
      return indexes.rebuild(file);
    },
  };
  const tools = [createSearchTool(toolOptions), createRepoMapTool(toolOptions)];
  return definePlugin({
    async initialize(context) {
      ctx = context;
      const dataDir = await context.config<string>('dataDir');
      const folder = typeof dataDir === 'string' && dataDir !== '' ? join(dataDir, 'indexes') : null;
      // A build stopped because another workspace's began stops that workspace's vectors too (made again with it).
      indexes = new WorkspaceIndexes(folder, { now, unusedAfterMs, onStopped: (file) => semantic.forget(file) });
      // A change of these settings starts the plugin again: they are read once here.
      const embeddings = readEmbeddingConfig(await context.configAll());
      if (embeddings.problem) context.log.warn(embeddings.problem);
      semantic = new SemanticIndexes({
        folder,
        config: embeddings.config,
        problem: embeddings.problem,
        onChange: refresh,
        ...(seams.embeddings?.client ? { client: seams.embeddings.client } : {}),
        ...(seams.embeddings?.index ? { index: seams.embeddings.index } : {}),
      });
      return true;
    },
    async shutdown() {
      if (progress) clearInterval(progress);
      progress = null;
      ctx = null;
      semantic.dispose();
      indexes.dispose();
    },
    capabilities() {
      return [
        ...tools.map((tool) => ({
          kind: 'tool' as const,
          ...tool.spec,
          execute: async (args: Record<string, unknown>, options: ToolCallOptions) => {
            if (!options.workspace) {
              return {
                content: [{ type: 'text' as const, text: `${tool.spec.name} needs a conversation's workspace folder, and this call came without one.` }],
                isError: true,
              };
            }
            try {
              return await tool.execute(args, { root: options.workspace, signal: options.signal, ...(options.denied ? { denied: options.denied } : {}) });
            } finally {
              refresh();
            }
          },
        })),
        {
          kind: 'panel' as const,
          ...panel(),
          onAction(actionId: string) {
            const file = /^rebuild\.([0-9a-f]{24})$/.exec(actionId)?.[1];
            if (file) {
              semantic.forget(`${file}.sqlite`);
              indexes.rebuild(`${file}.sqlite`);
            }
            refresh();
          },
        },
      ];
    },
  });
}
