import { z } from 'zod';
import { PolicyMode, StoredPolicyRule } from '../agent/index.ts';
import { ConfigValue, CONTRIBUTION_KINDS, type ContributionKind, MAX_CONFIG_FIELDS, PluginConfigSchema } from '../plugins/index.ts';

// Schemas of the settings screen's calls: the plugin list and its toggles, the user plugin folder, and the
// tool policy (mode per session, stored rules).

/**
 * A plugin's lifecycle state, the one list main and the window share. `idle`: a lazy plugin that is on but
 * not started: its manifest's declarations are installed, it has no process, and the first use of one (or
 * an event it starts on) starts it.
 */
export const PluginState = z.enum(['registered', 'idle', 'activating', 'active', 'failed', 'incompatible', 'deactivated']);
export type PluginState = z.infer<typeof PluginState>;

export const PluginContributionView = z.object({
  kind: z.enum(CONTRIBUTION_KINDS as [ContributionKind, ...ContributionKind[]]),
  key: z.string(),
  status: z.enum(['installed', 'declined']),
  reason: z.string().optional(),
});
export type PluginContributionView = z.infer<typeof PluginContributionView>;

/** One plugin as the settings screen shows it. */
export const PluginView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** A known category or any other value, which gets a heading of its own. */
  category: z.string(),
  version: z.string(),
  source: z.enum(['bundled', 'user']),
  state: PluginState,
  /** Why it is Failed or Incompatible, as a sentence. */
  reason: z.string().nullable(),
  enabled: z.boolean(),
  /** The plugin's process id while it runs. */
  pid: z.number().int().nullable(),
  contributions: z.array(PluginContributionView),
  /** A user plugin never switched on: turning it on needs the user's confirmation (`confirm: true`). */
  needsConfirmation: z.boolean(),
  /** The kinds of contribution it declared when it last ran, and those its manifest declares; else empty until it has run. */
  declares: z.array(z.enum(CONTRIBUTION_KINDS as [ContributionKind, ...ContributionKind[]])),
  recentCrashes: z.number().int().nonnegative(),
  /** Its manifest declares settings: Settings offers a form (plugins.getConfig / plugins.setConfig). */
  hasSettings: z.boolean().default(false),
  /** Where it runs: a process of its own, or the shared process of its group (see plugins.setProcess). */
  process: z.enum(['own', 'shared']).default('own'),
});
export type PluginView = z.infer<typeof PluginView>;

export const PluginListing = z.object({
  plugins: z.array(PluginView),
  /** `<data dir>/plugins`: a folder per user plugin. */
  folder: z.string(),
  /** Folders that looked like plugins but could not be read, with the reason. */
  problems: z.array(z.object({ dir: z.string(), reason: z.string() })),
});
export type PluginListing = z.infer<typeof PluginListing>;

/** A user plugin whose tools say they only read: the policy believes them only once the user confirms. */
export const ReadOnlyClaim = z.object({ pluginId: z.string(), name: z.string(), tools: z.array(z.string()), confirmed: z.boolean() });
export type ReadOnlyClaim = z.infer<typeof ReadOnlyClaim>;

export const PolicyView = z.object({
  sessionId: z.string().nullable(),
  mode: PolicyMode,
  /** Every stored rule, oldest first. */
  rules: z.array(StoredPolicyRule),
  /** The titles of the conversations rules came from, by session id; null for one since deleted. */
  ruleSessions: z.record(z.string(), z.string().nullable()).default({}),
  /** Seconds a question waits before it is denied as timed out; null: it waits until answered. */
  approvalTimeoutSeconds: z.number().int().positive().nullable().default(null),
  readOnlyClaims: z.array(ReadOnlyClaim).default([]),
});
export type PolicyView = z.infer<typeof PolicyView>;

/** A plugin's settings as the form shows them: secrets only as whether they hold a value. */
export const PluginConfigView = z.object({
  pluginId: z.string(),
  schema: PluginConfigSchema,
  /** Non-secret settings holding a value, by key (`name` or `group.name`); the others use their default. */
  values: z.record(z.string(), ConfigValue),
  secrets: z.record(z.string(), z.boolean()),
});
export type PluginConfigView = z.infer<typeof PluginConfigView>;

/** Settings to change, by key: a value sets one, null resets it to its default (or clears a secret). */
export const PluginConfigChanges = z
  .record(z.string().min(1).max(130), ConfigValue.nullable())
  .refine((changes) => Object.keys(changes).length <= MAX_CONFIG_FIELDS, `at most ${MAX_CONFIG_FIELDS} settings at once`);
export type PluginConfigChanges = z.infer<typeof PluginConfigChanges>;
