import type { AgentService, ModelRef, ProviderResolver, SystemPromptBuilder } from './agent/index.ts';
import type { AgentDefinitions } from './agent-definitions/index.ts';
import type { SkillLibrary } from './skills/index.ts';
import type { PlanService } from './plan/index.ts';
import type { ProjectService } from './projects/index.ts';
import type { PluginConfigService, PluginService } from './plugins/index.ts';
import type { ApprovalBroker, PolicyService, SandboxService } from './policy/index.ts';
import type { PluginSecrets, ProviderAccounts } from './providers/index.ts';
import type { SessionStore } from './sessions/index.ts';
import type { SettingsService } from './settings/index.ts';
import type { WorkspaceService } from './workspace/index.ts';
import type { ModelInfo } from '../shared/providers/index.ts';

// The core's services as a type, apart from the composition root (app.ts) that builds them: the command
// tree and the status bar are built over these, and importing them from app.ts would make a circle.

/** The core's services that the others are built over (the status bar and the command tree read these). */
export interface AppCore {
  readonly dataDir: string;
  readonly sessions: SessionStore;
  /** Amber's own settings, typed (CORE_SETTINGS in shared): read and written only through this. */
  readonly settings: SettingsService;
  /** Questions the tool policy asks the user, and their answers. */
  readonly approvals: ApprovalBroker;
  /** The tool policy (modes, stored rules, read-only claims): the one the agent asks before every tool call. */
  readonly policy: PolicyService;
  /** The shell sandbox: whether one can start here, and the network setting each shell call's sandbox follows. */
  readonly sandbox: SandboxService;
  readonly agent: AgentService;
  /** Provider endpoints the user set up; their keys stay in the secret store. */
  readonly providers: ProviderAccounts;
  /** The model new conversations use: the one chosen in setup, else the one the core was built with. */
  defaultModel(): ModelRef | null;
  /**
   * What is known of a model: its provider's list merged over the models.dev catalog (prices, context
   * window, whether it reasons). Null when its provider is not available.
   */
  modelInfo(ref: ModelRef): ModelInfo | null;
  /** The context window a run of this model works against (the same the compaction trigger uses); null when the model cannot be resolved. */
  contextWindow(ref: ModelRef): Promise<number | null>;
  /** A model's stream and facts, as runs get them (the eval's judge calls a model with it). */
  resolveProvider: ProviderResolver;
  /** The plugin runtime: registries, on/off state, events (see src/main/plugins/index.ts). */
  readonly plugins: PluginService;
  /** The write path for a plugin's config whose settings marked secret go to the key file. */
  readonly pluginSecrets: PluginSecrets;
  /** Each plugin's settings, checked against its manifest's schema; secrets kept apart and never shown. */
  readonly pluginConfig: PluginConfigService;
  /** Each conversation's workspace folder: tools and the policy read their root from here only. */
  readonly workspaces: WorkspaceService;
  /** The projects: named workspace folders with their own instructions and defaults for new conversations. */
  readonly projects: ProjectService;
  /** Each run's system message, and the user's own instructions in it. */
  readonly systemPrompt: SystemPromptBuilder;
  /** The kinds of child agent the task tool can start: built-ins, the user's and the workspace's confirmed ones. */
  readonly agentDefinitions: AgentDefinitions;
  /** The skills the skill tool loads: the user's and the workspace's confirmed ones. */
  readonly skills: SkillLibrary;
  /** The checklist the agent keeps with the todo tool, per branch of each conversation. */
  readonly plan: PlanService;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
}
