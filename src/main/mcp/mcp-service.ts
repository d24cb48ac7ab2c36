import { MAX_MCP_RESOURCE_CHARS, type McpListing, type McpResourceText, McpStoredConfig } from '../../shared/api/index.ts';
import type { CommandRegistrar, FeedItem } from '../../shared/commands/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError } from '../errors.ts';
import { MCP_METHODS, type McpMethodName, type McpMethods, McpPluginReport, promptArguments } from '../../shared/mcp/index.ts';
import type { MethodArgs, MethodResult } from '../../shared/plugins/index.ts';
import type { PluginService } from '../plugins/index.ts';
import type { PluginSecrets } from '../providers/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { readMcpJson } from './mcp-json.ts';

// Main's side of the MCP plugin, built once per core by createApp: what the plugin last reported (server
// names for completion, prompts as `/mcp.<server>.<prompt>` commands, resources to attach), and calls into
// the plugin through the methods it declares (MCP_METHODS: zod-checked both ways, never command text).
// Every API router over the core reads it; none registers commands of its own, so two windows never offer
// a prompt twice.

export const MCP_PLUGIN_ID = 'mcp';
/** Where the plugin's config is stored (the servers added in Settings, and the names switched off). */
export const MCP_CONFIG_KEY = `plugin.${MCP_PLUGIN_ID}.config`;
/** What the plugin emits with every server's status (see src/plugins/mcp). */
const SERVERS_TOPIC = 'mcp.serversChanged';

export { McpPluginReport };

const EMPTY: McpPluginReport = { servers: [], problems: [], prompts: [], resources: [], credentialsRevision: 0 };
const names = (report: McpPluginReport) => report.servers.map((s) => s.name).join('\0');

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
  /** Where the plugin's stored config is read. */
  settings: SettingsService;
  /** Which plugins have an on/off state stored (the MCP plugin has none until first switched). */
  store: { pluginStates(): Map<string, boolean> };
  /**
   * Where the servers' OAuth credentials are kept: the key file, as the plugin's secret setting `oauth.<server>`
   * (never the database). Unset, sign-ins last as long as the plugin runs.
   */
  secrets?: Pick<PluginSecrets, 'stored' | 'write' | 'forget'>;
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
  /** The plugin's credentials revision last kept in the key file (-1: none yet since it started). */
  #keptRevision = -1;
  #keeping: Promise<void> = Promise.resolve();

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
        this.#keepCredentials(report.data.credentialsRevision);
        this.#changed.fire(this.#listing(report.data));
      }),
    );
    this.#subscriptions.add(
      plugins.onDidChange((info) => {
        if (info.id !== MCP_PLUGIN_ID || info.state === 'activating') return;
        // Its prompts go with it at once, before the listing comes back; a new process counts its revisions from 0.
        if (info.state !== 'active') {
          this.#take(EMPTY);
          this.#keptRevision = -1;
        }
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
    const parsed = McpStoredConfig.safeParse(this.#options.settings.get('plugin.config', MCP_PLUGIN_ID));
    return parsed.success ? parsed.data : { servers: {}, off: [] };
  }

  /**
   * Calls a method the MCP plugin declares, and only that plugin's (the registry keys methods by plugin).
   * Arguments and answer are checked against MCP_METHODS; a failure is an AmberError with the plugin's sentence.
   */
  async call<M extends McpMethodName>(name: M, args: MethodArgs<McpMethods, M>): Promise<MethodResult<McpMethods, M>> {
    const methods = this.#options.plugins.registries.methods;
    if (!methods.has(MCP_PLUGIN_ID, name)) throw new AmberError('unavailable', 'The MCP plugin is not running; switch it on in Settings → Plugins.');
    return await methods.call(MCP_PLUGIN_ID, MCP_METHODS, name, args);
  }

  /**
   * Starts the OAuth sign-in of a server: answers the authorization page the window opens (in the desktop app
   * the window's guard sends it to the system browser). The plugin finishes it when the browser comes back.
   */
  async signIn(server: string): Promise<{ url: string }> {
    return await this.call('signIn', { server });
  }

  /** Drops a server's OAuth credentials (in the plugin and in the key file) and disconnects it. */
  async signOut(server: string): Promise<void> {
    await this.call('signOut', { server });
    this.#options.secrets?.forget(MCP_PLUGIN_ID, [`oauth.${server}`]);
    await this.#keeping;
  }

  /** Disconnects a server and connects it again. */
  async restart(server: string): Promise<void> {
    await this.call('restart', { server });
  }

  /** A server's resource as text for a message, cut at MAX_MCP_RESOURCE_CHARS (the plugin cuts too; main does not rely on it). */
  async readResource(server: string, uri: string): Promise<McpResourceText> {
    const { text } = await this.call('resource', { server, uri });
    const truncated = text.length > MAX_MCP_RESOURCE_CHARS;
    return { server, uri, text: truncated ? text.slice(0, MAX_MCP_RESOURCE_CHARS) : text, truncated };
  }

  /** Every server with its state: from the plugin while it runs, else the configured ones, off. */
  async list(): Promise<McpListing> {
    if (!this.pluginActive()) {
      this.#take(EMPTY);
      return this.#configuredOnly();
    }
    const pushed = this.#pushed;
    const report = await this.call('report', {});
    // A push heard while the answer was on its way is newer than the answer (it is handled the moment it
    // arrives; the answer only after this await).
    if (this.#pushed !== pushed) return this.#listing(this.#latest);
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
      await this.call('reload', {});
    }
    const listing = await this.list();
    this.#changed.fire(listing);
    return listing;
  }

  /**
   * For Settings' Test button: starts the plugin the first time, as adding a server would; once the user has
   * switched it off, it stays off and the test is refused with what to do.
   */
  async startForTest(): Promise<void> {
    if (this.pluginActive()) return;
    if (this.#options.store.pluginStates().get(MCP_PLUGIN_ID) === false)
      throw new AmberError('unavailable', 'The MCP plugin is off; switch it on in Settings → Plugins to try a server.');
    await this.#options.plugins.setState(MCP_PLUGIN_ID, true);
    if (!this.pluginActive()) throw new AmberError('unavailable', 'The MCP plugin did not start; Settings → Plugins says why.');
  }

  /** An mcp.json brought from another app switches the plugin on the first time Amber sees it; after that the user's switch decides. */
  startWithMcpJson(): void {
    if (!this.#options.store.pluginStates().has(MCP_PLUGIN_ID) && readMcpJson(this.#options.dataDir).found) {
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
    for (const [name, raw] of Object.entries(readMcpJson(this.#options.dataDir).servers)) entries.push([name, raw, 'file']);
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

  /**
   * Reads the servers' OAuth credentials from the plugin when its revision moved, and keeps them in the key
   * file (a null drops a server's). Writes go one after another; a failure is logged, never thrown.
   */
  #keepCredentials(revision: number): void {
    const secrets = this.#options.secrets;
    if (!secrets || revision === this.#keptRevision || revision === 0) return;
    this.#keeping = this.#keeping.then(async () => {
      if (revision <= this.#keptRevision) return;
      try {
        const { revision: read, servers } = await this.call('credentials', {});
        const stored = secrets.stored(MCP_PLUGIN_ID);
        const oauth = { ...(typeof stored['oauth'] === 'object' && stored['oauth'] !== null ? (stored['oauth'] as Record<string, unknown>) : {}) };
        const dropped: string[] = [];
        for (const [name, record] of Object.entries(servers)) {
          if (record === null) {
            delete oauth[name];
            dropped.push(`oauth.${name}`);
          } else oauth[name] = record;
        }
        if (dropped.length > 0) secrets.forget(MCP_PLUGIN_ID, dropped);
        secrets.write(MCP_PLUGIN_ID, { ...stored, oauth });
        this.#keptRevision = Math.max(this.#keptRevision, read);
      } catch (e) {
        console.error(`amber: the MCP servers' sign-ins could not be kept in the key file: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  }

  #take(report: McpPluginReport): void {
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
          man: `/${word} ${usage}\nGets the prompt '${prompt.name}' from the MCP server '${prompt.server}' and puts it into the message box. Arguments go in order, or as name=value; quote a value with spaces ("New York").`,
          argument: prompt.arguments.length > 0,
          source: `plugin:${MCP_PLUGIN_ID}`,
          handler: async (argument) => {
            const values = promptArguments(
              prompt.arguments.map((a) => a.name),
              argument,
            );
            return { insert: (await this.call('prompt', { server: prompt.server, prompt: prompt.name, arguments: values })).text };
          },
        });
        this.#promptCommands.set(word, { view: JSON.stringify(prompt), registration });
      } catch {
        // A command of that name exists already: the prompt is not offered as a command.
      }
    }
  }
}
