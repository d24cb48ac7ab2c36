import { join } from 'node:path';
import { AgentService, type ModelRef, type ProviderResolver, type ToolSource } from './agent/index.ts';
import { ApprovalBroker } from './api/approval-broker.ts';
import { DATABASE_FILE } from './data-dir.ts';
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
}

export interface App {
  readonly dataDir: string;
  readonly sessions: SessionStore;
  /** Questions the tool policy asks the user, and their answers. */
  readonly approvals: ApprovalBroker;
  /** Null when no provider resolver was given. */
  readonly agent: AgentService | null;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
  dispose(): Promise<void>;
}

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  const approvals = new ApprovalBroker();
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
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
    async dispose() {
      await agent?.dispose();
      approvals.dispose();
      sessions.close();
    },
  };
}
