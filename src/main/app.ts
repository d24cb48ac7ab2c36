import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pluginPromptBlocks, pluginProviderResolver, pluginToolSource, ToolCatalog, withStoredImages } from './agent-bridge/index.ts';
import {
  AgentService,
  composeToolSources,
  ConversationTitler,
  type ModelRef,
  type ProviderResolver,
  SystemPromptBuilder,
  ToolOutputStore,
  type ToolSource,
} from './agent/index.ts';
import { ApprovalBroker, PolicyService, type SandboxStatus, SandboxService, type UnattendedApprovals } from './policy/index.ts';
import { AGENT_DELTA_TOPIC, AGENT_EVENT_TOPIC, MEMORY_EXTRACTED_TOPIC, secretBindings as bindingsOf, secretKeys } from '../shared/plugins/index.ts';
import { DATABASE_FILE, tightenDataDir } from './data-dir.ts';
import { PluginConfigService, type PluginLauncher, PluginService, readConfigSetting } from './plugins/index.ts';
import type { ModelInfo } from '../shared/providers/index.ts';
import {
  FileSecretStore,
  ModelCatalog,
  modelMetadata,
  PLUGIN_SECRET_BINDINGS,
  PLUGIN_SECRET_FIELDS,
  PluginSecrets,
  ProviderAccounts,
  type SecretBindings,
  type SecretFields,
  type SecretStore,
} from './providers/index.ts';
import { AmberError } from './errors.ts';
import { createAppCommands, type AppCommands } from './commands/index.ts';
import { SessionStore, SessionTrash } from './sessions/index.ts';
import { SettingsService } from './settings/index.ts';
import { StatusService } from './status/index.ts';
import type { Event } from '../shared/emitter.ts';
import { WorkspaceService } from './workspace/index.ts';
import { McpService } from './mcp/index.ts';
import { ElicitationBroker } from './elicitation/index.ts';
import { type CoreEvent, windowEvents } from './api/index.ts';
import { WalletService } from './wallets/index.ts';
import type { AppCore } from './app-core.ts';
import { revisionMemo } from './revision-memo.ts';
import { AgentDefinitions, settingsConfirmations } from './agent-definitions/index.ts';
import { SKILL_TOOL, SkillLibrary, skillToolSource } from './skills/index.ts';
import { PlanService, todoToolSource } from './plan/index.ts';
import { SubagentService } from './subagents/index.ts';
import {
  checkTaskInput,
  coreTaskChecks,
  ScheduledTaskStore,
  scheduleCommands,
  startScheduledRun,
  TaskScheduler,
  type TaskSchedulerOptions,
} from './schedule/index.ts';
import { ProjectService } from './projects/index.ts';

export type { AppCore } from './app-core.ts';

export interface AppOptions {
  dataDir: string;
  /** Where models come from. Default: the provider plugins that are active, behind the allowances. */
  resolveProvider?: ProviderResolver;
  /**
   * Whether conversations are titled by their model after the first reply. Default: as the
   * `conversations.autoTitle` setting says (on). Test fixtures turn it off, so a scripted model server's
   * replies go to the conversation; the tests of titles turn it on.
   */
  autoTitle?: boolean;
  /** The tools the agent may call. Default: the tools the active plugins contribute. */
  tools?: ToolSource;
  /** The model of a session whose branch names none, when setup chose none. */
  defaultModel?: ModelRef | null;
  /**
   * The folder new conversations work in until the user has chosen one (each conversation keeps its own;
   * tools are confined to it). Default: AMBER_WORKSPACE, else the workspace tools' `root` setting, else
   * `~/Amber` — never the process's working directory.
   */
  workspace?: string;
  /** The user's home folder (never a workspace itself; `~/Amber` is made in it). Default: the OS's. */
  home?: string;
  /** Where Amber itself is installed: never a workspace. Default: the folder this code runs from. */
  installDirs?: readonly string[];
  /** How plugin processes start: Electron's utilityProcess in the desktop shell, else a forked Node child. */
  launchPlugin?: PluginLauncher;
  /** Activate the plugins that are on (default true); the CLI passes false. */
  startPlugins?: boolean;
  /** Where API keys are kept. Default: `<dataDir>/secrets.json`, mode 0600, unencrypted (with a warning). */
  secrets?: SecretStore;
  /** Whether shell commands can run in an OS sandbox here, asked once at start. Default: the OS's answer. */
  sandboxProbe?: () => Promise<SandboxStatus>;
  /**
   * A core for runs with no one to ask (`amber run`): no window ever connects, so a question is never put to
   * anyone; a call these allowances cover runs, any other that would ask is denied at once. Default: none,
   * questions wait for a window.
   */
  unattended?: UnattendedApprovals;
  /**
   * Scheduled tasks: the clock, timer and notification seams, and whether the scheduler runs here. Default: the
   * real clock and timer, no notification, and it runs where plugins start and someone may be asked (the shells;
   * never `amber run`, an eval or a core with `startPlugins: false`).
   */
  scheduler?: Pick<TaskSchedulerOptions, 'clock' | 'timer' | 'notify'> & { start?: boolean };
}

export type { CoreEvent } from './api/index.ts';

export interface App extends AppCore {
  /** The status bar's segments per session; announces each new view. */
  readonly status: StatusService;
  /** The command tree with its actions bound to the core and every plugin's commands bridged in. */
  readonly commands: AppCommands;
  /** Deleted sessions kept a few minutes for undo. */
  readonly trash: SessionTrash;
  /** The MCP plugin's servers as main sees them; their prompts are commands in the tree, registered once per core. */
  readonly mcp: McpService;
  /** The wallets' balances as the window shows them, and the low-balance threshold. */
  readonly wallets: WalletService;
  /** Plugins' forms for the user (an MCP server's elicitation), and the answers. */
  readonly elicitations: ElicitationBroker;
  /** The task tool's child agents: their limits, rows and Stop. */
  readonly subagents: SubagentService;
  /** The scheduled tasks, their runs and the one timer that starts them while Amber runs. */
  readonly scheduler: TaskScheduler;
  /** The tools the agent can be offered, each with its plugin (those of plugins that are off too, unavailable): `tools.list`. */
  readonly toolCatalog: ToolCatalog;
  /** Every change the core's owners announced, as window events (one map: see api/window-events.ts). */
  readonly onDidEmit: Event<CoreEvent>;
  dispose(): Promise<void>;
}

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  // Before anything in it is read: an existing data folder left open to others is made the owner's alone.
  tightenDataDir(options.dataDir);
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  // Amber's own settings, typed (CORE_SETTINGS): the one reader and writer of the settings table.
  const settings = new SettingsService({ store: sessions });
  const approvals = new ApprovalBroker();
  // Probed once, at start: by the first shell call the answer is there.
  const sandbox = new SandboxService({ settings, ...(options.sandboxProbe ? { probe: options.sandboxProbe } : {}) });
  void sandbox.status();
  // No tool may touch the data folder in any mode; what the policy cannot decide alone it asks the user.
  const policy = new PolicyService({
    settings,
    ...(options.unattended ? { unattended: options.unattended } : { approver: approvals.ask }),
    deniedRoots: [options.dataDir],
    sandbox,
  });
  const secrets = options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json'));
  const providers = new ProviderAccounts(settings, secrets);
  // Plugin settings marked secret (`secret: true` in a manifest, and the wallet's keys from before) leave the
  // database before any plugin reads them. Read at every plugin config read: derived again only when the
  // catalog's manifests change.
  let secretFieldsOf: { schemas: ReturnType<PluginService['configurations']>; fields: SecretFields } | null = null;
  const secretFields = (): SecretFields => {
    const schemas = plugins.configurations();
    if (secretFieldsOf?.schemas === schemas) return secretFieldsOf.fields;
    const fields: Record<string, readonly string[]> = { ...PLUGIN_SECRET_FIELDS };
    for (const [id, schema] of schemas) {
      const declared = secretKeys(schema);
      if (declared.length > 0) fields[id] = [...new Set([...(fields[id] ?? []), ...declared])];
    }
    secretFieldsOf = { schemas, fields };
    return fields;
  };
  // A secret bound to the setting that says where it goes (`boundTo`, an MCP server's target) is dropped when
  // that setting changes, so a key never reaches a server it was not entered for.
  const secretBindings = (): SecretBindings => {
    const bindings: Record<string, SecretBindings[string]> = { ...PLUGIN_SECRET_BINDINGS };
    for (const { id } of plugins.list()) {
      const declared = bindingsOf(plugins.configuration(id) ?? undefined);
      if (declared.length > 0) bindings[id] = [...(bindings[id] ?? []), ...declared];
    }
    return bindings;
  };
  const pluginSecrets = new PluginSecrets(settings, secrets, { fields: secretFields, bindings: secretBindings });
  // The catalog's manifests (which config fields are secret) as a number that moves when they change.
  let manifestsSeen: unknown = null;
  let manifests = 0;
  const manifestsRevision = (): number => {
    const schemas = plugins.configurations();
    if (schemas !== manifestsSeen) {
      manifestsSeen = schemas;
      manifests++;
    }
    return manifests;
  };
  const configuredWorkspace = (): string | null => {
    const root = readConfigSetting(settings, 'workspace-tools')['root'];
    return options.workspace ?? process.env.AMBER_WORKSPACE ?? (typeof root === 'string' && root.trim() !== '' ? root : null);
  };
  const workspaces = new WorkspaceService({
    store: sessions,
    settings,
    limits: {
      home: options.home ?? homedir(),
      dataDir: options.dataDir,
      installDirs: options.installDirs ?? [resolve(import.meta.dirname, '../..')],
    },
    configuredDefault: configuredWorkspace,
  });
  // A project's folder is checked as a conversation's workspace is.
  const projects = new ProjectService({ settings, resolveFolder: (folder) => workspaces.forNewConversation(folder) });
  // Plugins' forms (an MCP server's elicitation) go to the window, unless no one can be asked (as the policy knows).
  const elicitations = new ElicitationBroker({ canAsk: (sessionId) => policy.canAsk(sessionId) });
  const plugins = new PluginService({
    elicitations,
    store: sessions,
    settings,
    dataDir: options.dataDir,
    workspace: workspaces.defaultForNew(),
    ...(options.launchPlugin ? { launcher: options.launchPlugin } : {}),
    // Read live at every plugin config read: the stored config with the plugin's own secret settings, a data
    // folder of the plugin's own, and for provider plugins (and the wallet) the accounts set up in Settings with their keys
    // (secrets and keys are sent only to the process of the plugin they belong to). Built again only when a
    // setting, a key or the catalog's manifests may have changed: it is read for every model call.
    config: revisionMemo(
      (id: string) => ({
        dataDir: join(options.dataDir, 'plugin-data', id),
        ...pluginSecrets.config(id),
        ...providers.pluginConfig(id),
      }),
      () => {
        const keys = secrets.revision?.() ?? null;
        return keys === null ? null : `${sessions.settings.revision()}|${keys}|${manifestsRevision()}`;
      },
    ),
  });
  pluginSecrets.migrate();
  const pluginConfig = new PluginConfigService({
    schemaOf: (id) => plugins.configuration(id),
    storage: pluginSecrets,
    // A plugin that is on starts again, so what it declares at start (a wallet per key) follows the change.
    applied: async (id) => {
      await plugins.restart(id);
    },
  });
  // Starting never throws: a plugin that fails to start is Failed with its reason in plugins.list().
  if (options.startPlugins !== false) void plugins.start().catch(() => {});
  const catalog = new ModelCatalog();
  // Described for every model call: the saved connections are read and parsed again only when a setting may have changed.
  const presetOf = revisionMemo(
    (accountId: string) => providers.list().find((a) => a.id === accountId)?.presetId,
    () => sessions.settings.revision(),
  );
  const describeModel = (ref: ModelRef, listed: ModelInfo | undefined, fallbackContextWindow: number): ModelInfo =>
    modelMetadata({ listed, modelId: ref.modelId, presetId: presetOf(ref.provider), catalog, fallbackContextWindow });
  const modelInfo = (ref: ModelRef): ModelInfo | null => {
    const provider = plugins.registries.providers.get(ref.provider)?.value;
    if (!provider) return null;
    return describeModel(
      ref,
      provider.models.find((m) => m.id === ref.modelId),
      provider.models[0]?.contextWindow ?? 32_768,
    );
  };
  // The catalog is a few megabytes: loaded in the background, awaited by the first model call.
  if (options.startPlugins !== false) void catalog.ready();
  // The skills the skill tool loads on demand: the user's, and the workspace's once confirmed; the prompt lists them one line each.
  const skills = new SkillLibrary({
    userDir: join(options.dataDir, 'skills'),
    confirmations: settingsConfirmations(settings, 'skills.confirmed'),
    switches: {
      isOff: (name) => settings.get('skills.off').includes(name),
      setOff: (name, off) => settings.set('skills.off', [...settings.get('skills.off').filter((n) => n !== name), ...(off ? [name] : [])].sort()),
    },
    confirmedAnywhere: () => Object.values(settings.get('skills.confirmed')).some((r) => Object.keys(r).length > 0),
  });
  const systemPrompt = new SystemPromptBuilder({
    settings,
    workspaceOf: (sessionId) => workspaces.of(sessionId),
    projectInstructions: (workspace) => projects.ofFolder(workspace),
    log: (m) => console.warn(m),
    // Listed only where the skill tool is offered (a child agent's run has no skill tool).
    skills: async (workspace, tools) => (tools.some((t) => t.name === SKILL_TOOL) ? skills.list(workspace ?? undefined) : []),
  });
  // The full text of tool results cut for the model; what deleted conversations left is removed at start.
  const toolOutputs = new ToolOutputStore(join(options.dataDir, 'tool-output'));
  void toolOutputs.sweep((id) => {
    try {
      return sessions.get(id).id === id;
    } catch (e) {
      // Only a conversation the store says is gone loses its outputs (not one it could not read).
      return !(e instanceof AmberError && e.code === 'not_found');
    }
  });
  // Layer 1 of context compression for every run, the children's too: read at each request, so a /set applies at once.
  const masking = () => ({ maskAfterTokens: settings.get('context.maskAfterTokens'), maskBatchTokens: settings.get('context.maskBatchTokens') });
  // Every request reads the images its messages name back from the blob store (none for a model without images).
  const resolveProvider = withStoredImages(
    options.resolveProvider ??
      pluginProviderResolver(plugins.registries.providers, plugins.registries.allowances, async (ref, listed, fallback) => {
        await catalog.ready();
        return describeModel(ref, listed, fallback);
      }),
    sessions.blobs,
  );
  const baseTools =
    options.tools ??
    pluginToolSource(plugins.registries.tools, { denied: [resolve(options.dataDir)], isBundled: (id) => plugins.get(id).source === 'bundled' });
  // The checklist the agent keeps with the todo tool, per branch.
  const plan = new PlanService({ store: sessions });
  const agentDefinitions = new AgentDefinitions({ userDir: join(options.dataDir, 'agents'), confirmations: settingsConfirmations(settings) });
  // The task tool's child agents: the same provider, tools (but the task tool), policy and hooks as the parent.
  const subagents = new SubagentService({
    store: sessions,
    settings,
    resolveProvider,
    tools: baseTools,
    gate: policy,
    questions: approvals.onDidChange,
    agents: agentDefinitions,
    systemPrompt: (sessionId, specs) => systemPrompt.build(sessionId, specs),
    parentPrompt: (sessionId) => agent.lastPrompt(sessionId)?.systemPrompt ?? null,
    parentModel: (sessionId) => sessions.branchState(sessionId).model ?? providers.defaultModel() ?? options.defaultModel ?? null,
    hooks: plugins.registries.hooks,
    toolOutputs,
    masking,
    // A child's spend reaches the allowances as its parent's: the budget plugin counts it for the parent conversation.
    onChildEvent: (event, parentSessionId) => {
      if (event.type === 'message_end') plugins.events.emit(AGENT_EVENT_TOPIC, { ...event, sessionId: parentSessionId });
    },
  });
  const agentTools = composeToolSources([
    baseTools,
    subagents.tools,
    todoToolSource({ plan, enabled: () => settings.get('agent.todo') }),
    skillToolSource({ skills }),
  ]);
  const agent = new AgentService({
    systemPrompt: (sessionId, tools) => systemPrompt.build(sessionId, tools),
    store: sessions,
    resolveProvider,
    tools: agentTools,
    promptBlocks: pluginPromptBlocks(plugins.registries.promptBlocks, (sessionId) => workspaces.of(sessionId) ?? ''),
    gate: policy,
    // Tools and the policy take the root from the conversation, so they can never disagree.
    workspaceRoot: (sessionId, signal) => workspaces.forRun(sessionId, signal),
    // The plugins' hooks shape each run: its input, system prompt, context, tool calls and results.
    hooks: plugins.registries.hooks,
    toolOutputs,
    masking,
    keepShare: () => settings.get('context.keepPercent') / 100,
    ...(options.defaultModel !== undefined ? { defaultModel: options.defaultModel } : {}),
  });
  const forwardToPlugins = agent.onDidEmit((event) => plugins.events.emit(event.type === 'message_update' ? AGENT_DELTA_TOPIC : AGENT_EVENT_TOPIC, event));
  // What a compaction's extraction found: the memory plugin takes it from here.
  const forwardMemories = agent.onDidExtractMemories((extracted) => plugins.events.emit(MEMORY_EXTRACTED_TOPIC, extracted));
  const countSubagents = agent.onDidEmit((event) => event.type === 'agent_start' && subagents.runStarted(event.sessionId));
  // A conversation gets a short title from its model after its first reply (unless the user named it).
  const titler = new ConversationTitler({
    runs: agent.onDidEmit,
    sessions,
    resolveProvider,
    enabled: () => options.autoTitle !== false && settings.get('conversations.autoTitle'),
    defaultModel: () => providers.defaultModel() ?? options.defaultModel ?? null,
    log: (m) => console.warn(m),
  });
  const core: AppCore = {
    dataDir: options.dataDir,
    sessions,
    settings,
    approvals,
    policy,
    sandbox,
    agent,
    providers,
    plugins,
    pluginSecrets,
    pluginConfig,
    workspaces,
    projects,
    systemPrompt,
    agentDefinitions,
    skills,
    plan,
    defaultModel: () => providers.defaultModel() ?? options.defaultModel ?? null,
    modelInfo,
    resolveProvider,
    contextWindow: async (ref) => {
      try {
        return (await resolveProvider(ref)).model.contextWindow;
      } catch {
        return null;
      }
    },
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
  };
  const status = new StatusService(core);
  const trash = new SessionTrash(sessions);
  const commands = createAppCommands(core, {
    compact: async (sessionId) => {
      const outcome = await agent.compact(sessionId, { model: core.defaultModel() ?? undefined });
      if (!outcome.ok) throw new AmberError('conflict', outcome.reason);
      return `Summarised the older messages (about ${outcome.entry.tokensBefore.toLocaleString('en')} tokens before).`;
    },
  });
  const mcp = new McpService({ plugins, commands: commands.tree, dataDir: options.dataDir, store: sessions, settings, secrets: pluginSecrets });
  if (options.startPlugins !== false) mcp.startWithMcpJson();
  const wallets = new WalletService({ wallets: plugins.registries.wallets, settings, accountName: (id) => providers.list().find((a) => a.id === id)?.name });
  // Owners announce their own changes; this one map turns them into the windows' events.
  // Scheduled tasks: one timer for the nearest due task; each run a conversation of its own, with no one to ask.
  const toolCatalog = new ToolCatalog({ tools: agentTools, plugins });
  const taskStore = ScheduledTaskStore.open(join(options.dataDir, DATABASE_FILE));
  const scheduler = new TaskScheduler({
    store: taskStore,
    startRun: (task, runId, at) => startScheduledRun(core, task, runId, at),
    check: (input) =>
      checkTaskInput(
        coreTaskChecks(core, () => toolCatalog.list()),
        input,
      ),
    folderOf: (task) => (task.projectId ? (projects.find(task.projectId)?.folder ?? null) : null),
    ...options.scheduler,
  });
  const scheduleCommandsAdded = scheduleCommands(scheduler, commands.tree, {
    placeOf: (sessionId) => {
      const folder = (sessionId ? workspaces.of(sessionId) : null) ?? workspaces.defaultForNew();
      const project = projects.ofFolder(folder);
      return project ? { project: project.id } : { folder };
    },
    modelOf: (sessionId) => {
      const model = (sessionId ? sessions.branchState(sessionId).model : null) ?? core.defaultModel();
      return model ? `${model.provider}/${model.modelId}` : null;
    },
  });
  if (options.scheduler?.start ?? (options.startPlugins !== false && !options.unattended)) scheduler.start();
  const events = windowEvents({ ...core, status, commands, mcp, wallets, subagents, scheduler, elicitations });
  return {
    ...core,
    subagents,
    scheduler,
    toolCatalog,
    status,
    commands,
    trash,
    mcp,
    wallets,
    elicitations,
    onDidEmit: events.event,
    async dispose() {
      events.dispose();
      scheduleCommandsAdded.dispose();
      scheduler.dispose();
      wallets.dispose();
      mcp.dispose();
      commands.dispose();
      status.dispose();
      forwardToPlugins.dispose();
      forwardMemories.dispose();
      countSubagents.dispose();
      titler.dispose();
      sandbox.dispose();
      await subagents.dispose();
      await agent.dispose();
      await plugins.dispose();
      approvals.dispose();
      elicitations.dispose();
      plan.dispose();
      projects.dispose();
      workspaces.dispose();
      settings.dispose();
      taskStore.close();
      sessions.close();
    },
  };
}
