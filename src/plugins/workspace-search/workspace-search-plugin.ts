import { join } from 'node:path';
import { type DefinedPlugin, definePlugin, type ToolCallOptions } from '../../workers/sdk/index.ts';
import { createRepoMapTool } from './repo-map-tool.ts';
import { createSearchTool } from './search-tool.ts';
import { WorkspaceIndexes } from './workspace-indexes.ts';

export interface WorkspaceSearchSeams {
  /** How long a search waits for a building index before grep answers (default 1000 ms). */
  indexWaitMs?: number;
}

/**
 * The `search` and `repo_map` tools over an index per workspace, kept in this plugin's own process and data folder
 * (`<plugin data>/indexes/<hash of the real path>.sqlite`, a cache). The workspace comes with each call, as
 * for the workspace tools; a call without one is refused.
 */
export function createWorkspaceSearchPlugin(seams: WorkspaceSearchSeams = {}): DefinedPlugin {
  let indexes = new WorkspaceIndexes(null);
  const toolOptions = { indexOf: (root: string, isDenied: (path: string) => boolean) => indexes.get(root, isDenied), indexWaitMs: seams.indexWaitMs };
  const tools = [createSearchTool(toolOptions), createRepoMapTool(toolOptions)];
  return definePlugin({
    async initialize(context) {
      const dataDir = await context.config<string>('dataDir');
      indexes = new WorkspaceIndexes(typeof dataDir === 'string' && dataDir !== '' ? join(dataDir, 'indexes') : null);
      return true;
    },
    async shutdown() {
      indexes.dispose();
    },
    capabilities() {
      return tools.map((tool) => ({
        kind: 'tool' as const,
        ...tool.spec,
        execute: async (args: Record<string, unknown>, options: ToolCallOptions) => {
          if (!options.workspace) {
            return {
              content: [{ type: 'text' as const, text: `${tool.spec.name} needs a conversation's workspace folder, and this call came without one.` }],
              isError: true,
            };
          }
          return tool.execute(args, { root: options.workspace, signal: options.signal, ...(options.denied ? { denied: options.denied } : {}) });
        },
      }));
    },
  });
}
