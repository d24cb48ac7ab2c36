import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EventName, EventPayload } from '../../shared/api/index.ts';
import {
  MAX_MCP_RESOURCE_CHARS,
  MCP_SERVER_NAME_RULE,
  MCP_TRUST_KEY,
  type McpListing,
  McpPromptView,
  McpResourceView,
  McpServerConfig,
  McpServerName,
  McpServersFile,
  McpServerView,
  McpStoredConfig,
  type McpTrust,
  parseMcpTrust,
} from '../../shared/api/mcp-api.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { CommandTree, FeedItem } from '../commands/index.ts';
import { AmberError } from '../errors.ts';
import type { Handlers } from './api-router.ts';

// Settings → MCP servers over the API. The servers added here are kept in the MCP plugin's stored config
// (`plugin.mcp.config`: `servers` in the mcpServers format, and the names switched `off`); those in
// mcp.json stay in that file. After each change the plugin is told to read them again (`/mcp reload`).

const PLUGIN_ID = 'mcp';
const CONFIG_KEY = `plugin.${PLUGIN_ID}.config`;
/** What the plugin emits with every server's status (see src/plugins/mcp). */
const SERVERS_TOPIC = 'mcp.serversChanged';
const PluginReport = z.object({
  servers: z.array(McpServerView),
  problems: z.array(z.string()),
  prompts: z.array(McpPromptView).max(2000).default([]),
  resources: z.array(McpResourceView).max(2000).default([]),
});
type PluginReport = z.infer<typeof PluginReport>;

type McpChannels = 'mcp.list' | 'mcp.import' | 'mcp.setEnabled' | 'mcp.remove' | 'mcp.restart' | 'mcp.trust' | 'mcp.setTrust' | 'mcp.resources' | 'mcp.readResource';

export interface McpRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Where each server prompt becomes `/mcp.<server>.<prompt>`, and `/mcp connect` completes server names. */
  commands?: CommandTree;
}

const SERVER_VERBS: Record<string, string> = {
  connect: 'Connects a server',
  disconnect: 'Closes a server and ends its process',
  restart: 'Disconnects a server and connects it again',
  prompt: "Gets a server's prompt",
  resource: "Reads a server's resource",
};
const PLAIN_VERBS: Record<string, string> = { list: 'The servers, their state and what they offer', reload: 'Reads mcp.json and the stored servers again' };

export function createMcpRoutes(app: App, options: McpRoutesOptions): Disposable & { handlers: Pick<Handlers, McpChannels> } {
  const subscriptions = new DisposableStore();
  const store = app.sessions;

  const pluginActive = () => {
    try {
      return app.plugins.get(PLUGIN_ID).state === 'active';
    } catch {
      return false;
    }
  };
  const stored = (): McpStoredConfig => {
    let raw: unknown = {};
    try {
      raw = JSON.parse(store.getSetting(CONFIG_KEY) ?? '{}');
    } catch {
      raw = {};
    }
    const parsed = McpStoredConfig.safeParse(raw);
    return parsed.success ? parsed.data : { servers: {}, off: [] };
  };
  const save = (config: McpStoredConfig) => {
    let rest: Record<string, unknown> = {};
    try {
      const current: unknown = JSON.parse(store.getSetting(CONFIG_KEY) ?? '{}');
      if (typeof current === 'object' && current !== null && !Array.isArray(current)) rest = current as Record<string, unknown>;
    } catch {
      rest = {};
    }
    // Environment values and headers go to the key file, not the database (PLUGIN_SECRET_FIELDS).
    app.pluginSecrets.write(PLUGIN_ID, { ...rest, servers: config.servers, off: config.off });
  };

  /** Without the plugin running, the configured servers are listed as off. */
  const configuredOnly = (): McpListing => {
    const config = stored();
    const entries: [string, unknown, 'file' | 'settings'][] = [];
    try {
      const file = McpServersFile.safeParse(JSON.parse(readFileSync(join(app.dataDir, 'mcp.json'), 'utf8')));
      if (file.success) for (const [name, raw] of Object.entries(file.data.mcpServers)) entries.push([name, raw, 'file']);
    } catch {
      // No mcp.json.
    }
    for (const [name, raw] of Object.entries(config.servers)) entries.push([name, raw, 'settings']);
    const byName = new Map(entries.map(([name, raw, source]) => [name, { raw, source }]));
    return {
      pluginActive: false,
      servers: [...byName].map(([name, { raw, source }]) => ({
        name,
        source,
        transport: typeof raw === 'object' && raw !== null && 'url' in raw ? ('http' as const) : ('stdio' as const),
        state: 'off' as const,
        error: null,
        tools: 0,
        resources: 0,
        prompts: 0,
      })),
      problems: [],
    };
  };

  /** Runs `/mcp …` in the MCP plugin, and only there (another plugin could hold a command of that name). */
  const runMcp = async (args: string[]) => {
    if (app.plugins.registries.commands.get('mcp')?.pluginId !== PLUGIN_ID) throw new AmberError('unavailable', 'The MCP plugin is not running; switch it on in Settings → Plugins.');
    return await app.plugins.registries.commands.run(['mcp'], args);
  };

  // What the MCP plugin last reported: server names for completion, prompts as commands, resources to attach.
  let latest: PluginReport = { servers: [], problems: [], prompts: [], resources: [] };
  const promptCommands = new Map<string, { view: string; registration: Disposable }>();
  const syncPrompts = () => {
    const tree = options.commands;
    if (!tree) return;
    const wanted = new Map(latest.prompts.map((p) => [`mcp.${p.server}.${p.name}`, p]));
    for (const [word, held] of promptCommands) {
      const next = wanted.get(word);
      if (!next || JSON.stringify(next) !== held.view) {
        held.registration.dispose();
        promptCommands.delete(word);
      }
    }
    for (const [word, prompt] of wanted) {
      if (promptCommands.has(word)) continue;
      const usage = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
      try {
        const registration = tree.registerCommand({
          path: [word],
          help: `${prompt.description || `The prompt '${prompt.name}' of the MCP server '${prompt.server}'`}${usage ? ` — ${usage}` : ''}`.slice(0, 500),
          man: `/${word} ${usage}\nGets the prompt '${prompt.name}' from the MCP server '${prompt.server}' and puts it into the message box. Arguments go in order, or as name=value.`,
          argument: prompt.arguments.length > 0,
          source: `plugin:${PLUGIN_ID}`,
          handler: async (argument) => {
            const answer = await runMcp(['prompt', prompt.server, prompt.name, ...(argument ? argument.split(/\s+/) : [])]);
            if (answer.isError) throw new Error(answer.output);
            return { insert: answer.output };
          },
        });
        promptCommands.set(word, { view: JSON.stringify(prompt), registration });
      } catch {
        // A command of that name exists already: the prompt is not offered as a command.
      }
    }
  };
  const take = (report: PluginReport) => {
    const names = (r: PluginReport) => r.servers.map((s) => s.name).join('\0');
    const serversChanged = names(report) !== names(latest);
    latest = report;
    syncPrompts();
    if (serversChanged) options.emit('commands.changed', {});
  };
  if (options.commands) {
    const servers = (): FeedItem[] => latest.servers.map((s) => ({ name: s.name, help: `${s.transport}, ${s.state}` }));
    subscriptions.add(
      options.commands.registerFeed(`command:${PLUGIN_ID}`, () => [
        ...Object.entries(PLAIN_VERBS).map(([name, help]) => ({ name, help })),
        ...Object.entries(SERVER_VERBS).map(([name, help]) => ({ name, help, values: servers() })),
      ]),
    );
  }
  subscriptions.add({
    dispose: () => {
      for (const held of promptCommands.values()) held.registration.dispose();
      promptCommands.clear();
    },
  });

  const list = async (): Promise<McpListing> => {
    if (!pluginActive()) {
      take({ servers: [], problems: [], prompts: [], resources: [] });
      return configuredOnly();
    }
    const answer = await runMcp(['list', '--json']);
    if (answer.isError) throw new AmberError('unavailable', answer.output);
    const report = PluginReport.parse(JSON.parse(answer.output));
    take(report);
    return { pluginActive: true, servers: report.servers, problems: report.problems };
  };

  /** Has the plugin read the servers again (or starts it, the first time a server is added). */
  const apply = async (): Promise<McpListing> => {
    if (!pluginActive()) {
      if (Object.keys(stored().servers).length > 0) await app.plugins.setState(PLUGIN_ID, true);
    } else {
      await runMcp(['reload']);
    }
    const listing = await list();
    options.emit('mcp.changed', listing);
    return listing;
  };

  subscriptions.add(
    app.plugins.events.on(SERVERS_TOPIC, (payload, from) => {
      // Any plugin may emit on any topic of its own choosing: only the MCP plugin speaks for its servers.
      if (from !== PLUGIN_ID) return;
      const report = PluginReport.safeParse(payload);
      if (!report.success) return;
      take(report.data);
      options.emit('mcp.changed', { pluginActive: true, servers: report.data.servers, problems: report.data.problems });
    }),
  );
  subscriptions.add(
    app.plugins.onDidChange((info) => {
      if (info.id !== PLUGIN_ID || info.state === 'activating') return;
      // Its prompts go with it at once, before the listing comes back.
      if (info.state !== 'active') take({ servers: [], problems: [], prompts: [], resources: [] });
      void list().then((l) => options.emit('mcp.changed', l), () => {});
    }),
  );

  // An mcp.json brought from another app switches the plugin on the first time Amber sees it; after that
  // the user's own switch decides.
  if (!store.pluginStates().has(PLUGIN_ID) && existsSync(join(app.dataDir, 'mcp.json'))) void app.plugins.setState(PLUGIN_ID, true).catch(() => {});

  return {
    handlers: {
      'mcp.list': () => list(),
      'mcp.import': async ({ json }) => {
        let value: unknown;
        try {
          value = JSON.parse(json);
        } catch (e) {
          throw new AmberError('invalid_input', `The text is not JSON: ${e instanceof Error ? e.message : String(e)}`);
        }
        const file = McpServersFile.safeParse(value);
        if (!file.success) throw new AmberError('invalid_input', 'The text is not in the mcpServers format: {"mcpServers": {"name": {"command": …} or {"url": …}}}.');
        const config = stored();
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
        const config = stored();
        config.off = enabled ? config.off.filter((n) => n !== name) : [...new Set([...config.off, name])];
        save(config);
        return await apply();
      },
      'mcp.remove': async ({ name }) => {
        const config = stored();
        if (!(name in config.servers)) throw new AmberError('not_found', `The server '${name}' was not added in Settings; if it is in mcp.json in the data folder, remove it there.`);
        delete config.servers[name];
        config.off = config.off.filter((n) => n !== name);
        save(config);
        return await apply();
      },
      'mcp.resources': () => ({ resources: pluginActive() ? latest.resources : [] }),
      'mcp.readResource': async ({ server, uri }) => {
        if (!pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        const answer = await runMcp(['resource', server, uri]);
        if (answer.isError) throw new AmberError('unavailable', answer.output);
        // The plugin caps the text too; main does not rely on it.
        const truncated = answer.output.length > MAX_MCP_RESOURCE_CHARS;
        return { server, uri, text: truncated ? answer.output.slice(0, MAX_MCP_RESOURCE_CHARS) : answer.output, truncated };
      },
      'mcp.trust': () => parseMcpTrust(store.getSetting(MCP_TRUST_KEY)),
      // Trust lives in main's settings, apart from the plugin's config, so the plugin cannot grant it itself.
      'mcp.setTrust': (change) => {
        const trust = parseMcpTrust(store.getSetting(MCP_TRUST_KEY));
        const edit = (names: string[], item: string) => (change.trusted ? [...new Set([...names, item])] : names.filter((x) => x !== item));
        const next: McpTrust = 'server' in change ? { ...trust, servers: edit(trust.servers, change.server) } : { ...trust, tools: edit(trust.tools, change.tool) };
        store.setSetting(MCP_TRUST_KEY, JSON.stringify(next));
        // A call waiting for approval that the trust now covers runs without the answer.
        app.policy.reconsider();
        return next;
      },
      'mcp.restart': async ({ name }) => {
        if (!pluginActive()) throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins first.');
        await runMcp(['restart', name]);
        return await list();
      },
    },
    dispose: () => subscriptions.dispose(),
  };
}
