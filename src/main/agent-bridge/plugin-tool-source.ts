import type { ToolSource } from '../agent/index.ts';
import type { ToolRegistry } from '../plugins/index.ts';

/**
 * The agent's tools are whatever the enabled plugins contribute at the moment of each turn. Every call
 * carries its conversation's workspace folder (the tool's root) and the folders no tool may touch.
 */
export function pluginToolSource(tools: ToolRegistry, options: { denied?: readonly string[] } = {}): ToolSource {
  const denied = [...(options.denied ?? [])];
  return {
    list: () => tools.specs(),
    execute: (name, args, execution) =>
      tools.execute(name, args, execution.signal, { sessionId: execution.sessionId, workspace: execution.workspaceRoot, denied }, (text) => execution.onUpdate(text)),
  };
}
