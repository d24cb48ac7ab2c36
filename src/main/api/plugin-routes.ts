import { PLUGIN_LOG_LINES_SHOWN, type PluginListing, type PluginView } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { PluginInfo } from '../plugins/index.ts';
import type { Handlers } from './api-router.ts';

export interface PluginRoutesOptions {
  /** Opens a folder with the system's file manager (the desktop shell); absent: the folder is only named. */
  openPath?: (path: string) => Promise<boolean>;
}

type PluginChannels =
  | 'plugins.list'
  | 'plugins.setState'
  | 'plugins.setProcess'
  | 'plugins.getConfig'
  | 'plugins.setConfig'
  | 'plugins.rescan'
  | 'plugins.openFolder'
  | 'plugins.logs';

export function pluginView(info: PluginInfo, hasSettings = false): PluginView {
  return {
    id: info.id,
    name: info.name,
    description: info.description,
    category: info.category,
    version: info.version,
    source: info.source,
    state: info.state,
    reason: info.reason,
    enabled: info.enabled,
    pid: info.pid,
    contributions: info.contributions.map((c) => ({ kind: c.kind, key: c.key, status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}) })),
    needsConfirmation: info.needsConfirmation,
    declares: [...info.declares],
    recentCrashes: info.recentCrashes,
    hasSettings,
    process: info.process,
  };
}

/** The plugin list, on/off state and settings over the plugin runtime (which announces each change itself). */
export function createPluginRoutes(app: App, options: PluginRoutesOptions): Disposable & { handlers: Pick<Handlers, PluginChannels> } {
  const { plugins } = app;
  const view = (info: PluginInfo): PluginView => pluginView(info, plugins.configuration(info.id) !== null);
  const listing = (): PluginListing => ({ plugins: plugins.list().map(view), folder: plugins.userFolder, problems: plugins.problems.map((p) => ({ ...p })) });
  return {
    handlers: {
      'plugins.list': () => listing(),
      'plugins.setState': async ({ id, enabled, confirm }) => view(await plugins.setState(id, enabled, { confirm: confirm === true })),
      'plugins.setProcess': async ({ id, process }) => view(await plugins.setProcess(id, process)),
      'plugins.getConfig': ({ id }) => app.pluginConfig.get(plugins.get(id).id),
      'plugins.setConfig': ({ id, values }) => app.pluginConfig.set(plugins.get(id).id, values),
      'plugins.logs': ({ id }) => ({ id: plugins.get(id).id, lines: plugins.logs(id).slice(-PLUGIN_LOG_LINES_SHOWN) }),
      'plugins.rescan': async () => {
        await plugins.rescan();
        return listing();
      },
      'plugins.openFolder': async () => {
        const folder = plugins.userFolder;
        if (!options.openPath) return { folder, opened: false };
        let opened = false;
        try {
          opened = await options.openPath(folder);
        } catch {
          opened = false;
        }
        return { folder, opened };
      },
    },
    dispose: () => {},
  };
}
