import type { ToolSource } from '../agent/index.ts';
import type { ToolRegistry } from '../plugins/index.ts';

export interface PluginToolSourceOptions {
  /** Folders no tool may touch whatever the path (Amber's data folder); sent with every call. */
  denied?: readonly string[];
  /** Whether a plugin shipped with Amber. Default: none did, so no plugin's read-only claim is trusted unasked. */
  isBundled?: (pluginId: string) => boolean;
}

/**
 * The agent's tools are whatever the enabled plugins contribute at the moment of each turn. Every call
 * carries its conversation's workspace folder (the tool's root) and the folders no tool may touch; a shell
 * tool's call also the sandbox the policy decided for it. Each
 * tool's origin (its plugin, and whether that plugin is bundled) goes to the policy, which trusts
 * `readOnly` from bundled plugins and from user plugins only once the user confirmed it.
 */
export function pluginToolSource(tools: ToolRegistry, options: PluginToolSourceOptions = {}): ToolSource {
  const isBundled = options.isBundled ?? (() => false);
  const denied = [...(options.denied ?? [])];
  return {
    list: () => tools.specs(),
    execute: (name, args, execution) =>
      tools.execute(
        name,
        args,
        execution.signal,
        {
          sessionId: execution.sessionId,
          workspace: execution.workspaceRoot,
          denied,
          ...(execution.sandbox ? { sandbox: execution.sandbox } : {}),
          ...(execution.subagent ? { subagent: true } : {}),
        },
        (text) => execution.onUpdate(text),
      ),
    origin: (name) => {
      const entry = tools.get(name);
      // A tool gone since the turn began fails when run; until then it is nobody's, so trusted by no one.
      if (!entry) return { pluginId: '', bundled: false };
      let bundled = false;
      try {
        bundled = isBundled(entry.pluginId);
      } catch {
        // An unknown plugin is not a bundled one.
      }
      return { pluginId: entry.pluginId, bundled };
    },
  };
}

/** Each user plugin's tools that say they only read, by plugin id: what Settings asks the user to confirm. */
export function userReadOnlyTools(tools: ToolRegistry, isBundled: (pluginId: string) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const entry of tools.entries()) {
    if (!entry.value.spec.readOnly || isBundled(entry.pluginId)) continue;
    out.set(entry.pluginId, [...(out.get(entry.pluginId) ?? []), entry.value.spec.name]);
  }
  return out;
}
