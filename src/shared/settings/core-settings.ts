import { z } from 'zod';
import { ApprovalTimeoutSeconds, PolicyMode, PolicyRules } from '../agent/index.ts';
import { McpTrust } from '../api/index.ts';
import { ProviderAccount } from '../providers/index.ts';
import { Project } from '../projects/index.ts';

/** Whose a setting is: the app's, one conversation's or one plugin's (the stored key then holds its id). */
export type SettingScope = 'global' | 'conversation' | 'plugin';

/**
 * How a value is kept in the settings table's text column: `json` as JSON, `text` as the string itself,
 * `number` as its decimal text, `flag` as `true` or `false`. These are the forms the keys had before the
 * table existed, so stored values stay readable.
 */
export type SettingFormat = 'json' | 'text' | 'number' | 'flag';

export interface SettingSpec<T = unknown, S extends SettingScope = SettingScope> {
  /** The key in the settings table; `*` stands for the conversation or plugin id of a scoped setting. */
  stored: string;
  scope: S;
  schema: z.ZodType<T>;
  /** What a setting that is not stored reads as; also what an unreadable one reads as (with a warning). */
  default: T;
  format: SettingFormat;
  /**
   * Set only where reading the default would be unsafe: an unreadable value then throws with this sentence
   * instead of reading as the default.
   */
  refuseCorrupt?: string;
  /** What it is, for the settings index. */
  help: string;
}

/** A table row: its type comes from the schema alone (the default must fit it). */
function setting<T, S extends SettingScope>(spec: Omit<SettingSpec<T, S>, 'default'> & { default: NoInfer<T> }): SettingSpec<T, S> {
  return spec;
}

/** The most instructions text kept per scope. */
export const INSTRUCTIONS_LIMIT = 20_000;

/** Ids a plugin-scoped setting may hold (plugin manifest ids). */
export const PLUGIN_SETTING_ID = /^[a-z0-9_]{1,64}$/;

/**
 * Amber's own settings: every key main keeps in the settings table, with its schema and default. Read and
 * written only through main's SettingsService; an unreadable value reads as the default and is logged —
 * except the stored tool rules, where a lost deny rule must not turn into an allow (`refuseCorrupt`).
 */
export const CORE_SETTINGS = {
  'policy.mode': setting({
    stored: 'policy.mode.*',
    scope: 'conversation',
    schema: PolicyMode,
    default: 'write',
    format: 'json',
    help: 'The tool policy of this conversation: read, write or yolo',
  }),
  'policy.approvalTimeoutSeconds': setting({
    stored: 'policy.approvalTimeoutSeconds',
    scope: 'global',
    schema: ApprovalTimeoutSeconds.nullable(),
    default: null,
    format: 'number',
    help: 'Seconds a question waits before it is denied (1 to 86,400); none: it waits until answered',
  }),
  'policy.readOnlyConfirmed': setting({
    stored: 'policy.readOnlyConfirmed.*',
    scope: 'plugin',
    schema: z.boolean(),
    default: false,
    format: 'flag',
    help: "Whether the user confirmed that a user plugin's read-only tools only read",
  }),
  'policy.rules': setting({
    stored: 'policy.rules',
    scope: 'global',
    schema: PolicyRules,
    default: [],
    format: 'json',
    refuseCorrupt: 'The stored tool rules cannot be read; fix or clear them in the settings.',
    help: 'The stored allow and deny rules, oldest first',
  }),
  'sandbox.network': setting({
    stored: 'sandbox.network',
    scope: 'global',
    schema: z.boolean(),
    default: false,
    format: 'flag',
    help: 'Whether shell commands in write mode may use the network',
  }),
  'sandbox.network.conversation': setting({
    stored: 'sandbox.network.*',
    scope: 'conversation',
    schema: z.boolean().nullable(),
    default: null,
    format: 'flag',
    help: "This conversation's own network choice for write mode; none: it follows sandbox.network",
  }),
  'agent.instructions': setting({
    stored: 'agent.instructions',
    scope: 'global',
    schema: z.string().max(INSTRUCTIONS_LIMIT),
    default: '',
    format: 'text',
    help: 'Your instructions for every conversation',
  }),
  'agent.instructions.conversation': setting({
    stored: 'agent.instructions.*',
    scope: 'conversation',
    schema: z.string().max(INSTRUCTIONS_LIMIT),
    default: '',
    format: 'text',
    help: 'Your instructions for this conversation',
  }),
  'agent.subagents': setting({
    stored: 'agent.subagents',
    scope: 'global',
    schema: z.boolean(),
    default: false,
    format: 'flag',
    help: 'Whether the agent may hand work to child agents with the task tool',
  }),
  'agent.subagents.maxParallel': setting({
    stored: 'agent.subagents.maxParallel',
    scope: 'global',
    schema: z.number().int().min(1).max(16),
    default: 4,
    format: 'number',
    help: 'The most child agents that run at once in a conversation',
  }),
  'agent.subagents.maxPerTurn': setting({
    stored: 'agent.subagents.maxPerTurn',
    scope: 'global',
    schema: z.number().int().min(1).max(256),
    default: 16,
    format: 'number',
    help: 'The most child agents one message of yours may start',
  }),
  'agent.subagents.maxIterations': setting({
    stored: 'agent.subagents.maxIterations',
    scope: 'global',
    schema: z.number().int().min(1).max(1000),
    default: 20,
    format: 'number',
    help: 'The most model calls a child agent makes before it is stopped',
  }),
  'agent.subagents.wallTimeMinutes': setting({
    stored: 'agent.subagents.wallTimeMinutes',
    scope: 'global',
    schema: z.number().int().min(1).max(1440),
    default: 10,
    format: 'number',
    help: 'The most minutes a child agent runs before it is stopped',
  }),
  'agent.subagents.budgetTokens': setting({
    stored: 'agent.subagents.budgetTokens',
    scope: 'global',
    schema: z.number().int().min(0).max(1_000_000_000),
    default: 2_000_000,
    format: 'number',
    help: 'The most tokens (in and out) a child agent may spend; 0: no limit',
  }),
  'agent.todo': setting({
    stored: 'agent.todo',
    scope: 'global',
    schema: z.boolean(),
    default: false,
    format: 'flag',
    help: 'Whether the agent may keep a checklist (the todo tool) shown above the composer',
  }),
  'context.maskAfterTokens': setting({
    stored: 'context.maskAfterTokens',
    scope: 'global',
    schema: z.number().int().min(0).max(10_000_000),
    default: 40_000,
    format: 'number',
    help: "Tool output older than the context's newest this many tokens is hidden from the model (a note says how to get it again); 0: never",
  }),
  'context.maskBatchTokens': setting({
    stored: 'context.maskBatchTokens',
    scope: 'global',
    schema: z.number().int().min(0).max(10_000_000),
    default: 20_000,
    format: 'number',
    help: "Hidden tool output grows by this many tokens at a time, so the provider's prompt cache holds between steps",
  }),
  'context.keepPercent': setting({
    stored: 'context.keepPercent',
    scope: 'global',
    schema: z.number().int().min(10).max(90),
    default: 50,
    format: 'number',
    help: "A compaction keeps at most this percent of the model's window: its summary, the messages it keeps word for word and the recent ones",
  }),
  'agents.confirmed': setting({
    stored: 'agents.confirmed',
    scope: 'global',
    schema: z.record(z.string().max(4096), z.record(z.string().max(64), z.string().regex(/^[0-9a-f]{64}$/))),
    default: {},
    format: 'json',
    help: "The workspaces' agent files the user confirmed: per workspace folder, each agent's name and content hash",
  }),
  'skills.confirmed': setting({
    stored: 'skills.confirmed',
    scope: 'global',
    schema: z.record(z.string().max(4096), z.record(z.string().max(64), z.string().regex(/^[0-9a-f]{64}$/))),
    default: {},
    format: 'json',
    help: "The workspaces' skills the user confirmed: per workspace folder, each skill's name and content hash",
  }),
  'skills.off': setting({
    stored: 'skills.off',
    scope: 'global',
    schema: z.array(z.string().max(64)).max(1000),
    default: [],
    format: 'json',
    help: 'The skills switched off (Settings → Skills or /skills off NAME): not listed in the system prompt, not loaded',
  }),
  'conversations.autoTitle': setting({
    stored: 'conversations.autoTitle',
    scope: 'global',
    schema: z.boolean(),
    default: true,
    format: 'flag',
    help: 'Whether a conversation gets a short title from its model after the first reply (one the user named keeps its name)',
  }),
  'workspace.recent': setting({
    stored: 'workspace.recent',
    scope: 'global',
    schema: z.array(z.string().max(4096)).max(32),
    default: [],
    format: 'json',
    help: 'The folders chosen last for conversations, newest first: the workspace picker offers them',
  }),
  'workspace.lastUsed': setting({
    stored: 'workspace.lastUsed',
    scope: 'global',
    schema: z.string().max(4096).nullable(),
    default: null,
    format: 'text',
    help: 'The folder last chosen: where the next new conversation starts',
  }),
  'ui.lastSessionId': setting({
    stored: 'ui.lastSessionId',
    scope: 'global',
    schema: z.string().max(200).nullable(),
    default: null,
    format: 'text',
    help: 'The conversation the window had open, opened again at start',
  }),
  'ui.walletThreshold': setting({
    stored: 'ui.walletThreshold',
    scope: 'global',
    schema: z.number().nullable(),
    default: null,
    format: 'number',
    help: 'Below this balance a wallet shows a warning; none: no warning',
  }),
  'mcp.trust': setting({
    stored: 'mcp.trust',
    scope: 'global',
    schema: McpTrust,
    default: { servers: [], tools: [] },
    format: 'json',
    help: 'The MCP servers and tools the user trusts to only read',
  }),
  'plugin.config': setting({
    stored: 'plugin.*.config',
    scope: 'plugin',
    schema: z.record(z.string(), z.unknown()),
    default: {},
    format: 'json',
    help: "A plugin's stored config (its secrets are kept apart)",
  }),
  'plugin.confirmed': setting({
    stored: 'plugin.*.confirmed',
    scope: 'plugin',
    schema: z.string().max(100).nullable(),
    default: null,
    format: 'text',
    help: 'When the user confirmed that a user plugin may run; none: not confirmed',
  }),
  'plugin.process': setting({
    stored: 'plugin.*.process',
    scope: 'plugin',
    schema: z.literal('shared').nullable(),
    default: null,
    format: 'text',
    help: 'shared: the user plugin runs in the shared process; none: in a process of its own',
  }),
  'providers.accounts': setting({
    stored: 'providers.accounts',
    scope: 'global',
    schema: z.array(ProviderAccount),
    default: [],
    format: 'json',
    help: 'The provider accounts set up in Settings (their keys are kept apart)',
  }),
  'providers.defaultModel': setting({
    stored: 'providers.defaultModel',
    scope: 'global',
    schema: z.object({ provider: z.string(), modelId: z.string() }).nullable(),
    default: null,
    format: 'json',
    help: 'The model new conversations start with',
  }),
  'projects.list': setting({
    stored: 'projects.list',
    scope: 'global',
    schema: z.array(Project),
    default: [],
    format: 'json',
    help: 'The projects: named workspace folders with their own instructions and defaults',
  }),
} as const;

export type CoreSettings = typeof CORE_SETTINGS;
export type CoreSettingKey = keyof CoreSettings;
/** The value a key holds. */
export type CoreSettingValue<K extends CoreSettingKey> = z.output<CoreSettings[K]['schema']>;
/** What follows the key in a call: the conversation or plugin id of a scoped setting, nothing for a global one. */
export type CoreSettingId<K extends CoreSettingKey> = CoreSettings[K]['scope'] extends 'global' ? [] : [id: string];

export const CORE_SETTING_KEYS = Object.keys(CORE_SETTINGS) as CoreSettingKey[];

export function isCoreSettingKey(name: string): name is CoreSettingKey {
  return Object.hasOwn(CORE_SETTINGS, name);
}

/** The settings-table key of a setting for one conversation or plugin (`id`), or of a global one. */
export function storedSettingKey(key: CoreSettingKey, id: string | null): string {
  const spec: SettingSpec = CORE_SETTINGS[key];
  if (spec.scope === 'global') return spec.stored;
  if (id === null || id === '') throw new Error(`The setting ${key} is kept per ${spec.scope}: name the ${spec.scope}.`);
  return spec.stored.replace('*', id);
}
