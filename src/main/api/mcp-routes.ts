import {
  MCP_SERVER_NAME_RULE,
  type McpListing,
  McpServerConfig,
  type McpServerDetails,
  McpServerName,
  McpServersFile,
  type McpStoredConfig,
  type McpTrust,
} from '../../shared/api/mcp-api.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { configToForm, formToConfig, MCP_PLUGIN_ID, readMcpJson, stringRecord } from '../mcp/index.ts';
import type { Handlers } from './api-router.ts';

// Settings → MCP servers over the API. The servers added here are kept in the MCP plugin's stored config
// (`plugin.mcp.config`: `servers` in the mcpServers format, and the names switched `off`), their
// environment values and headers in the key file; those in mcp.json stay in that file. After each change
// the plugin is told to read them again (its `reload` method), which reconnects only the servers that changed.
// What the plugin reports, and its prompts as commands, are the core's (app.mcp): two routers over one
// core share them.

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
  | 'mcp.readResource';


/** The key-file paths of a stored server's environment values and headers. */
const secretPaths = (name: string, raw: unknown): string[] => {
  const server = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return [...Object.keys(stringRecord(server['env'])).map((k) => `servers.${name}.env.${k}`), ...Object.keys(stringRecord(server['headers'])).map((k) => `servers.${name}.headers.${k}`)];
};

export function createMcpRoutes(app: App): Disposable & { handlers: Pick<Handlers, McpChannels> } {
  const settings = app.settings;
  const mcp = app.mcp;

  const save = (config: McpStoredConfig) => {
    const rest = settings.get('plugin.config', MCP_PLUGIN_ID);
    // Environment values and headers go to the key file, not the database (PLUGIN_SECRET_FIELDS).
    app.pluginSecrets.write(MCP_PLUGIN_ID, { ...rest, servers: config.servers, off: config.off });
  };

  /** The stored servers with their environment values and headers from the key file: main's eyes only. */
  const withSecrets = (): Record<string, unknown> => {
    const servers = app.pluginSecrets.config(MCP_PLUGIN_ID)['servers'];
    return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
  };

  const fileServerNames = (): Set<string> => new Set(Object.keys(readMcpJson(app.dataDir).servers));

  /** Has the plugin read the servers again (or starts it, the first time a server is added); the service announces. */
  const apply = (): Promise<McpListing> => mcp.reload();

  return {
    handlers: {
      'mcp.list': () => mcp.list(),
      'mcp.import': async ({ json }) => {
        let value: unknown;
        try {
          value = JSON.parse(json);
        } catch (e) {
          throw new AmberError('invalid_input', `The text is not JSON: ${e instanceof Error ? e.message : String(e)}`);
        }
        const file = McpServersFile.safeParse(value);
        if (!file.success) throw new AmberError('invalid_input', 'The text is not in the mcpServers format: {"mcpServers": {"name": {"command": …} or {"url": …}}}.');
        const config = mcp.storedConfig();
        const problems: string[] = [];
        let added = 0;
        for (const [name, raw] of Object.entries(file.data.mcpServers)) {
          if (!McpServerName.safeParse(name).success) {
            problems.push(`'${name}' is not a server name Amber can use: ${MCP_SERVER_NAME_RULE}.`);
            continue;
          }
          const server = McpServerConfig.safeParse(raw);
          if (!server.success) {
            problems.push(`The server '${name}' needs a "command" (stdio) or a "url" (HTTP).`);
            continue;
          }
          config.servers[name] = raw;
          config.off = config.off.filter((n) => n !== name);
          added++;
        }
        if (added === 0) throw new AmberError('invalid_input', problems.join(' ') || 'The mcpServers object names no server.');
        save(config);
        const listing = await apply();
        return { ...listing, problems: [...problems, ...listing.problems] };
      },
      'mcp.setEnabled': async ({ name, enabled }) => {
        const config = mcp.storedConfig();
        config.off = enabled ? config.off.filter((n) => n !== name) : [...new Set([...config.off, name])];
        save(config);
        return await apply();
      },
      'mcp.remove': async ({ name }) => {
        const config = mcp.storedConfig();
        if (!Object.hasOwn(config.servers, name)) throw new AmberError('not_found', `The server '${name}' was not added in Settings; if it is in mcp.json in the data folder, remove it there.`);
        // Its environment values and headers leave the key file with it.
        app.pluginSecrets.forget(MCP_PLUGIN_ID, secretPaths(name, withSecrets()[name]));
        delete config.servers[name];
        config.off = config.off.filter((n) => n !== name);
        save(config);
        return await apply();
      },
      'mcp.server': ({ name }): McpServerDetails => {
        const raw = Object.hasOwn(withSecrets(), name) ? withSecrets()[name] : undefined;
        if (!Object.hasOwn(mcp.storedConfig().servers, name)) {
          throw new AmberError('not_found', fileServerNames().has(name) ? `The server '${name}' comes from mcp.json in the data folder; edit it there.` : `There is no server '${name}' added in Settings.`);
        }
        return { name, server: configToForm(raw) };
      },
      'mcp.save': async ({ name, previousName, server }) => {
        const config = mcp.storedConfig();
        if (previousName !== undefined && !Object.hasOwn(config.servers, previousName)) {
          throw new AmberError('not_found', fileServerNames().has(previousName) ? `The server '${previousName}' comes from mcp.json in the data folder; edit it there.` : `There is no server '${previousName}' added in Settings to edit.`);
        }
        if (previousName !== name) {
          if (Object.hasOwn(config.servers, name)) throw new AmberError('conflict', `A server named '${name}' exists already; choose another name, or edit that one.`);
          if (fileServerNames().has(name)) throw new AmberError('conflict', `A server named '${name}' is in mcp.json in the data folder; choose another name.`);
        }
        const stored = withSecrets();
        const before = previousName === undefined ? undefined : stored[previousName];
        const next = formToConfig(server, before);
        // The old values leave the key file first, so a value emptied or a variable removed is not revived.
        if (previousName !== undefined) {
          app.pluginSecrets.forget(MCP_PLUGIN_ID, secretPaths(previousName, before));
          delete config.servers[previousName];
        }
        config.servers[name] = next;
        if (previousName !== undefined && previousName !== name && config.off.includes(previousName)) config.off = [...config.off.filter((n) => n !== previousName), name];
        save(config);
        return await apply();
      },
      'mcp.resources': () => ({ resources: mcp.resources }),
      'mcp.readResource': async ({ server, uri }) => {
        if (!mcp.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        return await mcp.readResource(server, uri);
      },
      'mcp.trust': () => settings.get('mcp.trust'),
      // Trust lives in main's settings, apart from the plugin's config, so the plugin cannot grant it itself.
      'mcp.setTrust': (change) => {
        const trust = settings.get('mcp.trust');
        const edit = (names: string[], item: string) => (change.trusted ? [...new Set([...names, item])] : names.filter((x) => x !== item));
        const next: McpTrust = 'server' in change ? { ...trust, servers: edit(trust.servers, change.server) } : { ...trust, tools: edit(trust.tools, change.tool) };
        settings.set('mcp.trust', next);
        // A call waiting for approval that the trust now covers runs without the answer.
        app.policy.reconsider();
        return next;
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
