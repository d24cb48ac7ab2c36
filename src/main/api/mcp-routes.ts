import type { McpTrust } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { McpServerSettings, mcpServerTools } from '../mcp/index.ts';
import type { Handlers } from './api-router.ts';

// Settings → MCP servers over the API: the servers' editing is McpServerSettings', what the plugin reports
// and its prompts as commands are the core's (app.mcp), which two routers over one core share. Trust stays
// in main's settings, apart from the plugin's config.

type McpChannels =
  | 'mcp.list'
  | 'mcp.import'
  | 'mcp.setEnabled'
  | 'mcp.remove'
  | 'mcp.restart'
  | 'mcp.server'
  | 'mcp.save'
  | 'mcp.trust'
  | 'mcp.setTrust'
  | 'mcp.resources'
  | 'mcp.readResource'
  | 'mcp.test'
  | 'mcp.tools'
  | 'mcp.signIn'
  | 'mcp.signOut';

export function createMcpRoutes(app: App): Disposable & { handlers: Pick<Handlers, McpChannels> } {
  const settings = app.settings;
  const mcp = app.mcp;
  const servers = new McpServerSettings({ mcp, settings, secrets: app.pluginSecrets, dataDir: app.dataDir });

  return {
    handlers: {
      'mcp.list': () => mcp.list(),
      'mcp.import': ({ json }) => servers.import(json),
      'mcp.setEnabled': ({ name, enabled }) => servers.setEnabled(name, enabled),
      'mcp.remove': ({ name }) => servers.remove(name),
      'mcp.server': ({ name }) => servers.details(name),
      'mcp.save': ({ name, previousName, server }) => servers.save(name, server, previousName),
      'mcp.resources': () => ({ resources: mcp.resources }),
      'mcp.readResource': async ({ server, uri }) => {
        if (!mcp.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        return await mcp.readResource(server, uri);
      },
      'mcp.test': ({ server, previousName }) => servers.test(server, previousName),
      'mcp.tools': () => mcpServerTools(app.plugins.registries.tools.specs()),
      'mcp.trust': () => settings.get('mcp.trust'),
      // Trust lives in main's settings, apart from the plugin's config, so the plugin cannot grant it itself.
      'mcp.setTrust': (change) => {
        const trust = settings.get('mcp.trust');
        const edit = (names: string[], item: string) => (change.trusted ? [...new Set([...names, item])] : names.filter((x) => x !== item));
        const next: McpTrust =
          'server' in change ? { ...trust, servers: edit(trust.servers, change.server) } : { ...trust, tools: edit(trust.tools, change.tool) };
        settings.set('mcp.trust', next);
        // A call waiting for approval that the trust now covers runs without the answer.
        app.policy.reconsider();
        return next;
      },
      'mcp.signIn': async ({ name }) => {
        if (!mcp.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        return await mcp.signIn(name);
      },
      'mcp.signOut': async ({ name }) => {
        if (!mcp.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        await mcp.signOut(name);
        return await mcp.list();
      },
      'mcp.restart': async ({ name }) => {
        if (!mcp.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        await mcp.restart(name);
        return await mcp.list();
      },
    },
    dispose: () => {},
  };
}
