import type { ToolSource } from '../agent/index.ts';
import type { ToolRegistry } from '../plugins/index.ts';

/** The agent's tools are whatever the enabled plugins contribute at the moment of each turn. */
export function pluginToolSource(tools: ToolRegistry): ToolSource {
  return {
    list: () => tools.specs(),
    execute: (name, args, execution) => tools.execute(name, args, execution.signal),
  };
}
