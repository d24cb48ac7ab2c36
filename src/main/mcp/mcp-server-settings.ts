import {
  MCP_SERVER_NAME_RULE,
  type McpListing,
  McpServerConfig,
  type McpServerDetails,
  type McpServerForm,
  McpServerName,
  McpServersFile,
  type McpStoredConfig,
  type McpTestResult,
} from '../../shared/api/index.ts';
import { AmberError } from '../errors.ts';
import type { PluginSecrets } from '../providers/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { readMcpJson } from './mcp-json.ts';
import { configToForm, formToConfig, stringRecord } from './mcp-server-form.ts';
import { MCP_PLUGIN_ID, type McpService } from './mcp-service.ts';

// Settings → MCP servers: the servers added there are kept in the MCP plugin's stored config
// (`plugin.mcp.config`: `servers` in the mcpServers format, and the names switched `off`), their
// environment values and headers in the key file; those in mcp.json stay in that file. After each change
// the plugin reads them again (its `reload` method), which reconnects only the servers that changed.

export interface McpServerSettingsOptions {
  mcp: McpService;
  settings: Pick<SettingsService, 'get'>;
  /** The write path of the plugin's config: environment values and headers go to the key file. */
  secrets: Pick<PluginSecrets, 'config' | 'write' | 'forget'>;
  dataDir: string;
}

/** The key-file paths of a stored server's environment values and headers. */
function secretPaths(name: string, raw: unknown): string[] {
  const server = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return [
    ...Object.keys(stringRecord(server['env'])).map((k) => `servers.${name}.env.${k}`),
    ...Object.keys(stringRecord(server['headers'])).map((k) => `servers.${name}.headers.${k}`),
  ];
}

export class McpServerSettings {
  readonly #o: McpServerSettingsOptions;

  constructor(options: McpServerSettingsOptions) {
    this.#o = options;
  }

  /** Adds the servers of a pasted `{"mcpServers": …}` text; the ones it cannot use are named in `problems`. */
  async import(json: string): Promise<McpListing> {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw new AmberError('invalid_input', `The text is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    const file = McpServersFile.safeParse(value);
    if (!file.success)
      throw new AmberError('invalid_input', 'The text is not in the mcpServers format: {"mcpServers": {"name": {"command": …} or {"url": …}}}.');
    const config = this.#o.mcp.storedConfig();
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
    this.#save(config);
    const listing = await this.#o.mcp.reload();
    return { ...listing, problems: [...problems, ...listing.problems] };
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpListing> {
    const config = this.#o.mcp.storedConfig();
    config.off = enabled ? config.off.filter((n) => n !== name) : [...new Set([...config.off, name])];
    this.#save(config);
    return await this.#o.mcp.reload();
  }

  async remove(name: string): Promise<McpListing> {
    const config = this.#o.mcp.storedConfig();
    if (!Object.hasOwn(config.servers, name))
      throw new AmberError('not_found', `The server '${name}' was not added in Settings; if it is in mcp.json in the data folder, remove it there.`);
    // Its environment values, headers and OAuth sign-in leave the key file with it.
    this.#o.secrets.forget(MCP_PLUGIN_ID, [...secretPaths(name, this.#withSecrets()[name]), `oauth.${name}`]);
    delete config.servers[name];
    config.off = config.off.filter((n) => n !== name);
    this.#save(config);
    return await this.#o.mcp.reload();
  }

  /** A server added in Settings as its edit form shows it (secret values never leave main). */
  details(name: string): McpServerDetails {
    const stored = this.#withSecrets();
    const raw = Object.hasOwn(stored, name) ? stored[name] : undefined;
    if (!Object.hasOwn(this.#o.mcp.storedConfig().servers, name)) {
      throw new AmberError(
        'not_found',
        this.#fileServerNames().has(name)
          ? `The server '${name}' comes from mcp.json in the data folder; edit it there.`
          : `There is no server '${name}' added in Settings.`,
      );
    }
    return { name, server: configToForm(raw) };
  }

  /** Adds a server, or edits the one named `previousName` (renaming it when the names differ). */
  async save(name: string, server: McpServerForm, previousName?: string): Promise<McpListing> {
    const config = this.#o.mcp.storedConfig();
    const fileNames = this.#fileServerNames();
    if (previousName !== undefined && !Object.hasOwn(config.servers, previousName)) {
      throw new AmberError(
        'not_found',
        fileNames.has(previousName)
          ? `The server '${previousName}' comes from mcp.json in the data folder; edit it there.`
          : `There is no server '${previousName}' added in Settings to edit.`,
      );
    }
    if (previousName !== name) {
      if (Object.hasOwn(config.servers, name))
        throw new AmberError('conflict', `A server named '${name}' exists already; choose another name, or edit that one.`);
      if (fileNames.has(name)) throw new AmberError('conflict', `A server named '${name}' is in mcp.json in the data folder; choose another name.`);
    }
    const before = previousName === undefined ? undefined : this.#withSecrets()[previousName];
    const next = formToConfig(server, before);
    // The old values leave the key file first, so a value emptied or a variable removed is not revived.
    if (previousName !== undefined) {
      // A renamed server signs in again: its sign-in was kept under its old name.
      this.#o.secrets.forget(MCP_PLUGIN_ID, [...secretPaths(previousName, before), ...(previousName !== name ? [`oauth.${previousName}`] : [])]);
      delete config.servers[previousName];
    }
    config.servers[name] = next;
    if (previousName !== undefined && previousName !== name && config.off.includes(previousName))
      config.off = [...config.off.filter((n) => n !== previousName), name];
    this.#save(config);
    return await this.#o.mcp.reload();
  }

  /**
   * Settings' Test button: the server as the form would save it (a kept secret read from the key file, as
   * Save would keep it) is connected once by the MCP plugin, which lists its tools and disconnects.
   */
  async test(server: McpServerForm, previousName?: string): Promise<McpTestResult> {
    const before = previousName === undefined ? undefined : this.#withSecrets()[previousName];
    const config = formToConfig(server, before);
    await this.#o.mcp.startForTest();
    return await this.#o.mcp.call('test', { config });
  }

  #save(config: McpStoredConfig): void {
    const rest = this.#o.settings.get('plugin.config', MCP_PLUGIN_ID);
    // Environment values and headers go to the key file, not the database (PLUGIN_SECRET_FIELDS).
    this.#o.secrets.write(MCP_PLUGIN_ID, { ...rest, servers: config.servers, off: config.off });
  }

  /** The stored servers with their environment values and headers from the key file: main's eyes only. */
  #withSecrets(): Record<string, unknown> {
    const servers = this.#o.secrets.config(MCP_PLUGIN_ID)['servers'];
    return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
  }

  #fileServerNames(): Set<string> {
    return new Set(Object.keys(readMcpJson(this.#o.dataDir).servers));
  }
}
