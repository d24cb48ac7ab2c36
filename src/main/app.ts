import { join, resolve } from 'node:path';
import { pluginPromptBlocks, pluginProviderResolver, pluginToolSource } from './agent-bridge/index.ts';
import { AgentService, type ModelRef, type ProviderResolver, type ToolSource } from './agent/index.ts';
import { ApprovalBroker } from './api/approval-broker.ts';
import { AGENT_DELTA_TOPIC, AGENT_EVENT_TOPIC } from '../shared/plugins/core-topics.ts';
import { DATABASE_FILE } from './data-dir.ts';
import { type PluginLauncher, PluginService, readConfigSetting } from './plugins/index.ts';
import { DIALECT_PLUGINS, FileSecretStore, ProviderAccounts, type SecretStore } from './providers/index.ts';
import { SessionStore } from './sessions/index.ts';

export interface AppOptions {
  dataDir: string;
  /** Where models come from. Default: the provider plugins that are active, behind the allowances. */
  resolveProvider?: ProviderResolver;
  /** The tools the agent may call. Default: the tools the active plugins contribute. */
  tools?: ToolSource;
  /** The model of a session whose branch names none, when setup chose none. */
  defaultModel?: ModelRef | null;
  /** The folder the agent works in: tools are confined to it. Default: AMBER_WORKSPACE, else the working directory. */
  workspace?: string;
  /** Absolute workspace root of a session for the policy and prompt blocks. Default: `workspace`. */
  workspaceRoot?: (sessionId: string) => string;
  /** How plugin processes start: Electron's utilityProcess in the desktop shell, else a forked Node child. */
  launchPlugin?: PluginLauncher;
  /** Activate the plugins that are on (default true); the CLI passes false. */
  startPlugins?: boolean;
  /** Where API keys are kept. Default: `<dataDir>/secrets.json`, mode 0600, unencrypted (with a warning). */
  secrets?: SecretStore;
}

export interface App {
  readonly dataDir: string;
  readonly sessions: SessionStore;
  /** Questions the tool policy asks the user, and their answers. */
  readonly approvals: ApprovalBroker;
  readonly agent: AgentService;
  /** Provider endpoints the user set up; their keys stay in the secret store. */
  readonly providers: ProviderAccounts;
  /** The model new conversations use: the one chosen in setup, else the one the core was built with. */
  defaultModel(): ModelRef | null;
  /** The plugin runtime: registries, on/off state, events (see src/main/plugins/index.ts). */
  readonly plugins: PluginService;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
  dispose(): Promise<void>;
}

// Topics on which plugins hear the agent's events (budget counts spend, metrics counts tokens).
export { AGENT_DELTA_TOPIC, AGENT_EVENT_TOPIC } from '../shared/plugins/core-topics.ts';

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  const approvals = new ApprovalBroker();
  const providers = new ProviderAccounts(sessions, options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json')));
  const providerPlugins = new Set(Object.values(DIALECT_PLUGINS));
  const workspace = resolve(options.workspace ?? process.env.AMBER_WORKSPACE ?? process.cwd());
  // Tools (in the workspace-tools plugin) and the policy must agree on one root, so sessions share it.
  const workspaceRoot = options.workspaceRoot ?? (() => workspace);
  const plugins = new PluginService({
    store: sessions,
    dataDir: options.dataDir,
    workspace,
    ...(options.launchPlugin ? { launcher: options.launchPlugin } : {}),
    // Read live at every plugin config read: the stored config, a data folder of the plugin's own, and for
    // provider plugins the accounts set up in Settings with their keys (sent only to that plugin's process).
    config: (id) => ({
      dataDir: join(options.dataDir, 'plugin-data', id),
      ...readConfigSetting(sessions, id),
      ...(providerPlugins.has(id) ? providers.pluginConfig(id) : {}),
    }),
  });
  // Starting never throws: a plugin that fails to start is Failed with its reason in plugins.list().
  if (options.startPlugins !== false) void plugins.start().catch(() => {});
  const agent = new AgentService({
    store: sessions,
    resolveProvider: options.resolveProvider ?? pluginProviderResolver(plugins.registries.providers, plugins.registries.allowances),
    tools: options.tools ?? pluginToolSource(plugins.registries.tools),
    promptBlocks: pluginPromptBlocks(plugins.registries.promptBlocks, workspaceRoot),
    approver: approvals.ask,
    workspaceRoot,
    ...(options.defaultModel !== undefined ? { defaultModel: options.defaultModel } : {}),
  });
  const forwardToPlugins = agent.subscribe((event) => plugins.events.emit(event.type === 'message_update' ? AGENT_DELTA_TOPIC : AGENT_EVENT_TOPIC, event));
  return {
    dataDir: options.dataDir,
    sessions,
    approvals,
    agent,
    providers,
    plugins,
    defaultModel: () => providers.defaultModel() ?? options.defaultModel ?? null,
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
    async dispose() {
      forwardToPlugins.dispose();
      await agent.dispose();
      await plugins.dispose();
      approvals.dispose();
      sessions.close();
    },
  };
}
