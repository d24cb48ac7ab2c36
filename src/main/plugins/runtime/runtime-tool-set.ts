import { type Disposable, toDisposable } from '../../../shared/disposable.ts';
import type { ToolDeclaration } from '../../../shared/plugins/index.ts';
import { errorMessage } from '../../errors.ts';
import type { PluginConnection } from '../edge/plugin-connection.ts';
import { installContribution } from './contribution-installer.ts';
import type { PluginRecord } from './plugin-record.ts';
import type { SupervisorContext } from './plugin-supervisor.ts';

/**
 * The tools a plugin sets while it runs (`$setTools`): each call replaces the whole set. They are installed
 * like declared tools and held by one ledger entry, so deactivation, failure and crash remove them too.
 */
export function runtimeToolSet(
  rec: PluginRecord,
  context: Pick<SupervisorContext, 'registries' | 'ledger' | 'timeouts' | 'notify'>,
  currentConn: () => PluginConnection,
): { replace(tools: ToolDeclaration[]): void } {
  const { registries, ledger, timeouts } = context;
  const id = rec.descriptor.manifest.id;
  const installed = new Map<string, Disposable>();
  let owned = false;
  const clear = () => {
    for (const d of [...installed.values()].reverse()) d.dispose();
    rec.contributions = rec.contributions.filter((c) => !(c.kind === 'tool' && installed.has(c.key) && c.runtime));
    installed.clear();
  };
  return {
    replace: (tools) => {
      const conn = currentConn();
      if (rec.conn !== conn || rec.state === 'failed' || rec.state === 'deactivated') throw new Error('The plugin is not running, so its tools were not set.');
      // A refused set changes nothing: names are checked before the previous set is removed.
      const seen = new Set<string>();
      for (const decl of tools) {
        if (seen.has(decl.name)) throw new Error(`The tools were not set: the tool '${decl.name}' is in the set twice.`);
        seen.add(decl.name);
        const holder = registries.tools.get(decl.name);
        if (holder && !installed.has(decl.name))
          throw new Error(`The tools were not set: the tool '${decl.name}' is already registered by the plugin '${holder.pluginId}'.`);
      }
      clear();
      try {
        for (const decl of tools) installed.set(decl.name, installContribution(registries, id, rec.caller ?? conn, decl, timeouts, rec.sinks, rec.toolUpdates));
      } catch (e) {
        clear();
        throw new Error(`The tools were not set: ${errorMessage(e)}`, { cause: e });
      }
      for (const name of installed.keys()) rec.contributions.push({ kind: 'tool', key: name, status: 'installed', runtime: true });
      if (!owned) {
        owned = true;
        ledger.record(id, 'tools:runtime', toDisposable(clear));
      }
      // While it activates, the change of state to come says it; after, the listeners hear of the new set.
      if (rec.state === 'active') context.notify(rec);
    },
  };
}
