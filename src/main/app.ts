import { join } from 'node:path';
import { AgentService, type ModelRef, type ProviderResolver, type ToolSource } from './agent/index.ts';
import { ApprovalBroker } from './api/approval-broker.ts';
import { DATABASE_FILE } from './data-dir.ts';
import { type PluginLauncher, PluginService } from './plugins/index.ts';
import { SessionStore } from './sessions/index.ts';

export interface AppOptions {
  dataDir: string;
  /** Where models come from. Without it the core has no agent, and chat calls say so. */
  resolveProvider?: ProviderResolver;
  /** The tools the agent may call. */
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
  /** Null when no provider resolver was given. */
  readonly agent: AgentService | null;
  /** The plugin runtime: registries, on/off state, events (see src/main/plugins/index.ts). */
  readonly plugins: PluginService;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
  dispose(): Promise<void>;
}

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  const approvals = new ApprovalBroker();
  const plugins = new PluginService({ store: sessions, dataDir: options.dataDir, ...(options.launchPlugin ? { launcher: options.launchPlugin } : {}) });
  // Starting never throws: a plugin that fails to start is Failed with its reason in plugins.list().
  if (options.startPlugins !== false) void plugins.start().catch(() => {});
  const agent = options.resolveProvider
    ? new AgentService({
        store: sessions,
        resolveProvider: options.resolveProvider,
        approver: approvals.ask,
        ...(options.tools ? { tools: options.tools } : {}),
        ...(options.defaultModel !== undefined ? { defaultModel: options.defaultModel } : {}),
        ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
      })
    : null;
  return {
    dataDir: options.dataDir,
    sessions,
    approvals,
    agent,
    plugins,
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
    async dispose() {
      await agent?.dispose();
      await plugins.dispose();
      approvals.dispose();
      sessions.close();
    },
  };
}
