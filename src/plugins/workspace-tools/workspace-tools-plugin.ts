import { definePlugin, type ToolCallOptions } from '../../workers/sdk/index.ts';
import { errorOutput } from './workspace-tool.ts';
import { WORKSPACE_TOOLS } from './workspace-tools.ts';

/**
 * read, ls, find, grep (read-only), write, edit and bash (a command line, judged by main's shell policy and run in
 * the OS sandbox it chose for the call), confined to the folder of the conversation each call
 * belongs to: the root comes with the call from main, the same root the policy judged the call against.
 * A call without one (outside a conversation) is refused rather than guessed.
 */
export default definePlugin({
  async initialize() {
    return true;
  },
  async shutdown() {},
  capabilities() {
    return WORKSPACE_TOOLS.map((tool) => ({
      kind: 'tool' as const,
      ...tool.spec,
      execute: async (args: Record<string, unknown>, options: ToolCallOptions) => {
        if (!options.workspace) return errorOutput(`${tool.spec.name} needs a conversation's workspace folder, and this call came without one.`);
        return tool.execute(args, {
          root: options.workspace,
          signal: options.signal,
          ...(options.denied ? { denied: options.denied } : {}),
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          ...(options.update ? { update: (text: string) => options.update?.(text) } : {}),
        });
      },
    }));
  },
});
