import type { AbortSignalLike } from '../../shared/providers/index.ts';
import { definePlugin, type PluginContext } from '../../workers/sdk/index.ts';
import { resolveWorkspaceRoot } from './workspace-path.ts';
import { WORKSPACE_TOOLS } from './workspace-tools.ts';

let ctx: PluginContext | null = null;

/** The root is read at each call: the plugin's `root` config, then the app's workspace, then AMBER_WORKSPACE, then the working directory. */
async function root(): Promise<string> {
  const configured = (await ctx?.config<string>('root')) || ctx?.workspace || null;
  return resolveWorkspaceRoot({ configured, env: process.env, cwd: process.cwd() });
}

/** read, ls, find, grep (read-only) and write, edit, confined to the workspace. */
export default definePlugin({
  async initialize(context) {
    ctx = context;
    return true;
  },
  async shutdown() {
    ctx = null;
  },
  capabilities() {
    return WORKSPACE_TOOLS.map((tool) => ({
      kind: 'tool' as const,
      ...tool.spec,
      execute: async (args: Record<string, unknown>, options: { signal: AbortSignalLike }) =>
        tool.execute(args, { root: await root(), signal: options.signal }),
    }));
  },
});
