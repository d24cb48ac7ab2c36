import { join } from 'node:path';
import { AgentService, type ModelRef, type ProviderResolver, type ToolSource } from './agent/index.ts';
import { ApprovalBroker } from './api/approval-broker.ts';
import { DATABASE_FILE } from './data-dir.ts';
import { AmberError } from './errors.ts';
import { type PluginLauncher, PluginService } from './plugins/index.ts';
import { SessionStore } from './sessions/index.ts';

export interface AppOptions {
  dataDir: string;
  /** Where models come from. Default: the provider plugins that are active. */
  resolveProvider?: ProviderResolver;
  /** The tools the agent may call. Default: the tools the active plugins contribute. */
  tools?: ToolSource;
  /** The model of a session whose branch names none. */
  defaultModel?: ModelRef | null;
  /** Absolute workspace root of a session (tool paths are confined to it). */
  workspaceRoot?: (sessionId: string) => string;
  /** How plugin processes start: Electron's utilityProcess in the desktop shell, else a forked Node child. */
  launchPlugin?: PluginLauncher;
  /** Activate the plugins that are on (default true); the CLI may pass false. */
  startPlugins?: boolean;
}

export interface App {
  readonly dataDir: string;
  readonly sessions: SessionStore;
  /** Questions the tool policy asks the user, and their answers. */
  readonly approvals: ApprovalBroker;
  readonly agent: AgentService;
  /** The model new conversations use: the one chosen in setup, else the one the core was built with. */
  defaultModel(): ModelRef | null;
  /** Remembers the model chosen in setup. */
  setDefaultModel(model: ModelRef): void;
  /** The plugin runtime: registries, on/off state, events (see src/main/plugins/index.ts). */
  readonly plugins: PluginService;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
  dispose(): Promise<void>;
}

const FALLBACK_CONTEXT_WINDOW = 32_768;
const DEFAULT_MODEL_KEY = 'provider.defaultModel';

/** Models come from the provider plugins that are active now; the question is asked again on every turn. */
function providersOf(plugins: PluginService): ProviderResolver {
  return (ref) => {
    const stream = plugins.registries.providers.stream(ref.provider);
    if (!stream) throw new AmberError('unavailable', `No active plugin provides ${ref.provider}. Turn its plugin on, or set up a provider again.`);
    const listed = plugins.registries.providers.list().find((p) => p.id === ref.provider)?.models.find((m) => m.id === ref.modelId);
    return { stream, model: listed ?? { id: ref.modelId, contextWindow: FALLBACK_CONTEXT_WINDOW, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } };
  };
}

/** The tools the active plugins contribute, as the agent's ToolSource. */
function toolsOf(plugins: PluginService): ToolSource {
  const tools = plugins.registries.tools;
  return { list: () => tools.specs(), execute: (name, args, execution) => tools.execute(name, args, execution.signal) };
}

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  const approvals = new ApprovalBroker();
  const plugins = new PluginService({ store: sessions, dataDir: options.dataDir, ...(options.launchPlugin ? { launcher: options.launchPlugin } : {}) });
  // Starting never throws: a plugin that fails to start is Failed with its reason in plugins.list().
  if (options.startPlugins !== false) void plugins.start().catch(() => {});
  const agent = new AgentService({
    store: sessions,
    resolveProvider: options.resolveProvider ?? providersOf(plugins),
    tools: options.tools ?? toolsOf(plugins),
    approver: approvals.ask,
    ...(options.defaultModel !== undefined ? { defaultModel: options.defaultModel } : {}),
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
  });
  return {
    dataDir: options.dataDir,
    sessions,
    approvals,
    agent,
    plugins,
    defaultModel: () => {
      const raw = sessions.getSetting(DEFAULT_MODEL_KEY);
      if (raw !== null) {
        try {
          const v = JSON.parse(raw) as Partial<ModelRef>;
          if (typeof v.provider === 'string' && typeof v.modelId === 'string') return { provider: v.provider, modelId: v.modelId };
        } catch {
          // An unreadable setting is as good as none: setup asks again.
        }
      }
      return options.defaultModel ?? null;
    },
    setDefaultModel: (model) => sessions.setSetting(DEFAULT_MODEL_KEY, JSON.stringify({ provider: model.provider, modelId: model.modelId })),
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
    async dispose() {
      await agent.dispose();
      await plugins.dispose();
      approvals.dispose();
      sessions.close();
    },
  };
}
