import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type McpListing, McpPromptView, McpResourceView, McpServersFile, McpServerView, McpStoredConfig } from '../../shared/api/index.ts';
import type { CommandRegistrar, FeedItem } from '../../shared/commands/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError } from '../errors.ts';
import type { PluginService } from '../plugins/index.ts';

// Main's side of the MCP plugin, built once per core by createApp: what the plugin last reported (server
// names for completion, prompts as `/mcp.<server>.<prompt>` commands, resources to attach), and `/mcp …`
// run in the plugin. Every API router over the core reads it; none registers commands of its own, so two
// windows never offer a prompt twice.

export const MCP_PLUGIN_ID = 'mcp';
/** Where the plugin's config is stored (the servers added in Settings, and the names switched off). */
export const MCP_CONFIG_KEY = `plugin.${MCP_PLUGIN_ID}.config`;
/** What the plugin emits with every server's status (see src/plugins/mcp). */
const SERVERS_TOPIC = 'mcp.serversChanged';

export const McpPluginReport = z.object({
  servers: z.array(McpServerView),
  problems: z.array(z.string()),
  prompts: z.array(McpPromptView).max(2000).default([]),
  resources: z.array(McpResourceView).max(2000).default([]),
  /** The folder stdio servers without one of their own start in. */
  workspace: z.string().max(4096).optional(),
});
export type McpPluginReport = z.infer<typeof McpPluginReport>;

const EMPTY: McpPluginReport = { servers: [], problems: [], prompts: [], resources: [] };

const SERVER_VERBS: Record<string, string> = {
  connect: 'Connects a server',
  disconnect: 'Closes a server and ends its process',
  restart: 'Disconnects a server and connects it again',
  prompt: "Gets a server's prompt",
  resource: "Reads a server's resource",
};
const PLAIN_VERBS: Record<string, string> = { list: 'The servers, their state and what they offer', reload: 'Reads mcp.json and the stored servers again' };

export interface McpServiceOptions {
  plugins: PluginService;
  /** Where each server prompt becomes `/mcp.<server>.<prompt>`, and `/mcp connect` completes server names. */
  commands: CommandRegistrar;
  dataDir: string;
  settings: { getSetting(key: string): string | null; pluginStates(): Map<string, boolean> };
}

export class McpService {
  readonly #options: McpServiceOptions;
  readonly #subscriptions = new DisposableStore();
  readonly #promptCommands = new Map<string, { view: string; registration: Disposable }>();
  #latest: McpPluginReport = EMPTY;
  readonly #changed = new Emitter<McpListing>((e) => console.error('An MCP listener failed', e));
  readonly #serversChanged = new Emitter<void>((e) => console.error('An MCP listener failed', e));
  /** The servers' listing changed: one connected, failed or offers something new, or the servers were edited. */
  readonly onDidChange: Event<McpListing> = this.#changed.event;
  /** The server names changed (what `/mcp connect …` completes). */
  readonly onDidChangeServers: Event<void> = this.#serversChanged.event;
  /** Counts the reports the plugin pushed, so a listing asked for before the newest push does not replace it. */
  #pushed = 0;

  constructor(options: McpServiceOptions) {
    this.#options = options;
    const { plugins, commands } = options;
    const servers = (): FeedItem[] => this.#latest.servers.map((s) => ({ name: s.name, help: `${s.transport}, ${s.state}` }));
    this.#subscriptions.add(
      commands.registerFeed(`command:${MCP_PLUGIN_ID}`, () => [
        ...Object.entries(PLAIN_VERBS).map(([name, help]) => ({ name, help })),
        ...Object.entries(SERVER_VERBS).map(([name, help]) => ({ name, help, values: servers() })),
      ]),
    );
    this.#subscriptions.add({
      dispose: () => {
        for (const held of this.#promptCommands.values()) held.registration.dispose();
        this.#promptCommands.clear();
      },
    });
    this.#subscriptions.add(
      plugins.events.on(SERVERS_TOPIC, (payload, from) => {
        // Any plugin may emit on any topic of its own choosing: only the MCP plugin speaks for its servers.
        if (from !== MCP_PLUGIN_ID) return;
        const report = McpPluginReport.safeParse(payload);
        if (!report.success) return;
        this.#pushed++;
        this.#take(report.data);
        this.#changed.fire(this.#listing(report.data));
      }),
    );
    this.#subscriptions.add(
      plugins.onDidChange((info) => {
        if (info.id !== MCP_PLUGIN_ID || info.state === 'activating') return;
        // Its prompts go with it at once, before the listing comes back.
        if (info.state !== 'active') this.#take(EMPTY);
        void this.list().then(
          (l) => this.#changed.fire(l),
          () => {},
        );
      }),
    );
  }

  /** The resources the connected servers list, for the composer's attach menu. */
  get resources(): McpPluginReport['resources'] {
    return this.pluginActive() ? this.#latest.resources : [];
  }

  pluginActive(): boolean {
    try {
      return this.#options.plugins.get(MCP_PLUGIN_ID).state === 'active';
    } catch {
      return false;
    }
  }

  /** The plugin's stored config; anything unreadable is no servers. */
  storedConfig(): McpStoredConfig {
    let raw: unknown = {};
    try {
      raw = JSON.parse(this.#options.settings.getSetting(MCP_CONFIG_KEY) ?? '{}');
    } catch {
      raw = {};
    }
    const parsed = McpStoredConfig.safeParse(raw);
    return parsed.success ? parsed.data : { servers: {}, off: [] };
  }

  /** Runs `/mcp …` in the MCP plugin, and only there (another plugin could hold a command of that name). */
  async run(args: string[]): Promise<{ output: string; isError: boolean }> {
    const registry = this.#options.plugins.registries.commands;
    if (registry.get('mcp')?.pluginId !== MCP_PLUGIN_ID) throw new AmberError('unavailable', 'The MCP plugin is not running; switch it on in Settings → Plugins.');
    return await registry.run(['mcp'], args);
  }

  /** Every server with its state: from the plugin while it runs, else the configured ones, off. */
  async list(): Promise<McpListing> {
    if (!this.pluginActive()) {
      this.#take(EMPTY);
      return this.#configuredOnly();
    }
    const pushed = this.#pushed;
    const answer = await this.run(['list', '--json']);
    if (answer.isError) throw new AmberError('unavailable', answer.output);
    // A push heard while the answer was on its way is newer than the answer (it is handled the moment it
    // arrives; the answer only after this await).
    if (this.#pushed !== pushed) return this.#listing(this.#latest);
    const report = McpPluginReport.parse(JSON.parse(answer.output));
    this.#take(report);
    return this.#listing(report);
  }

  #listing(report: McpPluginReport): McpListing {
    return { pluginActive: true, servers: report.servers, problems: report.problems, ...(report.workspace ? { defaultFolder: report.workspace } : {}) };
  }

  /**
   * Has the plugin read the servers again after they were edited (or starts it, the first time a server is
   * added), and announces the new listing.
   */
  async reload(): Promise<McpListing> {
    if (!this.pluginActive()) {
      if (Object.keys(this.storedConfig().servers).length > 0) await this.#options.plugins.setState(MCP_PLUGIN_ID, true);
    } else {
      await this.run(['reload']);
    }
    const listing = await this.list();
    this.#changed.fire(listing);
    return listing;
  }

  /** An mcp.json brought from another app switches the plugin on the first time Amber sees it; after that the user's switch decides. */
  startWithMcpJson(): void {
    if (!this.#options.settings.pluginStates().has(MCP_PLUGIN_ID) && existsSync(join(this.#options.dataDir, 'mcp.json'))) {
      void this.#options.plugins.setState(MCP_PLUGIN_ID, true).catch(() => {});
    }
  }

  dispose(): void {
    this.#subscriptions.dispose();
    this.#changed.dispose();
    this.#serversChanged.dispose();
  }

  #configuredOnly(): McpListing {
    const entries: [string, unknown, 'file' | 'settings'][] = [];
    try {
      const file = McpServersFile.safeParse(JSON.parse(readFileSync(join(this.#options.dataDir, 'mcp.json'), 'utf8')));
      if (file.success) for (const [name, raw] of Object.entries(file.data.mcpServers)) entries.push([name, raw, 'file']);
    } catch {
      // No mcp.json.
    }
    for (const [name, raw] of Object.entries(this.storedConfig().servers)) entries.push([name, raw, 'settings']);
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
  }

  #take(report: McpPluginReport): void {
    const names = (r: McpPluginReport) => r.servers.map((s) => s.name).join('\0');
    const serversChanged = names(report) !== names(this.#latest);
    this.#latest = report;
    this.#syncPrompts();
    if (serversChanged) this.#serversChanged.fire();
  }

  #syncPrompts(): void {
    const tree = this.#options.commands;
    const wanted = new Map(this.#latest.prompts.map((p) => [`mcp.${p.server}.${p.name}`, p]));
    for (const [word, held] of this.#promptCommands) {
      const next = wanted.get(word);
      if (!next || JSON.stringify(next) !== held.view) {
        held.registration.dispose();
        this.#promptCommands.delete(word);
      }
    }
    for (const [word, prompt] of wanted) {
      if (this.#promptCommands.has(word)) continue;
      const usage = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
      try {
        const registration = tree.registerCommand({
          path: [word],
          help: `${prompt.description || `The prompt '${prompt.name}' of the MCP server '${prompt.server}'`}${usage ? ` — ${usage}` : ''}`.slice(0, 500),
          man: `/${word} ${usage}\nGets the prompt '${prompt.name}' from the MCP server '${prompt.server}' and puts it into the message box. Arguments go in order, or as name=value.`,
          argument: prompt.arguments.length > 0,
          source: `plugin:${MCP_PLUGIN_ID}`,
          handler: async (argument) => {
            const answer = await this.run(['prompt', prompt.server, prompt.name, ...(argument ? argument.split(/\s+/) : [])]);
            if (answer.isError) throw new Error(answer.output);
            return { insert: answer.output };
          },
        });
        this.#promptCommands.set(word, { view: JSON.stringify(prompt), registration });
      } catch {
        // A command of that name exists already: the prompt is not offered as a command.
      }
    }
  }
}
