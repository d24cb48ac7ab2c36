import type { OfferedTool } from '../../shared/tools/index.ts';
import type { ToolSource } from '../agent/index.ts';
import type { PluginService } from '../plugins/index.ts';

/** What the catalog reads: the agent's tools now, and the plugins with the tools their manifests declare. */
export interface ToolCatalogOptions {
  tools: ToolSource;
  plugins: Pick<PluginService, 'list' | 'manifestTools'>;
}

/**
 * The tools the agent can be offered (`tools.list`, a scheduled task's picker and checks), each with its plugin.
 * A plugin that is off or failed offers nothing, but its tools are still listed, unavailable, with the reason:
 * the ones its manifest declares, and the ones it offered earlier while Amber has been running. Read-only.
 */
export class ToolCatalog {
  readonly #options: ToolCatalogOptions;
  /** Tools seen offered by a plugin since start, by name: named when their plugin goes off. */
  readonly #seen = new Map<string, { pluginId: string; description: string; readOnly: boolean; shell: boolean }>();

  constructor(options: ToolCatalogOptions) {
    this.#options = options;
  }

  async list(): Promise<OfferedTool[]> {
    const { tools, plugins } = this.#options;
    const specs = await tools.list();
    const infos = new Map(plugins.list().map((p) => [p.id, p]));
    const out: OfferedTool[] = [];
    const listed = new Set<string>();
    for (const spec of specs) {
      const pluginId = tools.origin?.(spec.name)?.pluginId ?? '';
      const info = infos.get(pluginId);
      const shell = spec.shell === true;
      if (info) this.#seen.set(spec.name, { pluginId, description: spec.description, readOnly: spec.readOnly, shell });
      out.push({
        name: spec.name,
        description: spec.description,
        readOnly: spec.readOnly,
        shell,
        plugin: info ? { id: info.id, name: info.name } : null,
        available: true,
        reason: null,
      });
      listed.add(spec.name);
    }
    const off = (id: string): string | null => {
      const info = infos.get(id);
      if (!info) return null;
      if (!info.enabled) return `${info.name} is off: turn it on in Settings → Plugins.`;
      if (info.state === 'failed' || info.state === 'incompatible') return `${info.name} did not start: ${info.reason ?? info.state}.`;
      return `${info.name} does not offer it now.`;
    };
    const unavailable = (name: string, pluginId: string, fields: Pick<OfferedTool, 'description' | 'readOnly' | 'shell'>) => {
      const info = infos.get(pluginId);
      const reason = off(pluginId);
      if (!info || !reason || listed.has(name)) return;
      listed.add(name);
      out.push({ name, ...fields, plugin: { id: info.id, name: info.name }, available: false, reason });
    };
    for (const info of infos.values())
      for (const decl of plugins.manifestTools(info.id))
        unavailable(decl.name, info.id, { description: decl.description, readOnly: decl.readOnly, shell: decl.shell === true });
    for (const [name, seen] of this.#seen) unavailable(name, seen.pluginId, seen);
    return out;
  }
}
