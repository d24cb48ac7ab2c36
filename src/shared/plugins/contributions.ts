import { z } from 'zod';
import { ModelInfo } from '../providers/provider-stream.ts';
import { ToolSpec, withPathParamsCheck } from '../tools/tool-spec.ts';

// What a plugin declares it contributes, as data. The behaviour behind each declaration (execute, render,
// stream, refresh, check, run) stays in the plugin's process and is reached through PluginApi.

const ContributionId = z.string().regex(/^[a-zA-Z0-9_.:-]{1,128}$/, 'an id is 1-128 letters, digits, _ . : or -');

/** A tool's spec as a plugin sends it; its `pathParams` are checked against its parameters like a spec's. */
export const ToolDeclaration = withPathParamsCheck(z.object({ kind: z.literal('tool'), ...ToolSpec.shape }));
export type ToolDeclaration = z.infer<typeof ToolDeclaration>;

/** Text placed at the head (system prompt) or the tail (after the conversation); higher priority first. */
export const PromptBlockDeclaration = z.object({
  kind: z.literal('promptBlock'),
  id: ContributionId,
  position: z.enum(['head', 'tail']),
  priority: z.number().int().default(0),
});
export type PromptBlockDeclaration = z.infer<typeof PromptBlockDeclaration>;

export const StatusSegment = z.object({
  id: ContributionId,
  text: z.string().max(200),
  tooltip: z.string().max(2000).optional(),
  /** Higher first, left to right. */
  priority: z.number().int().default(0),
});
export type StatusSegment = z.infer<typeof StatusSegment>;
export const StatusSegmentDeclaration = z.object({ kind: z.literal('statusSegment'), ...StatusSegment.shape });
export type StatusSegmentDeclaration = z.infer<typeof StatusSegmentDeclaration>;

/** A panel is data the renderer draws; plugin code never runs in the renderer. */
export const PanelRow = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('keyValue'), key: z.string(), value: z.string() }),
  z.object({ type: z.literal('progress'), label: z.string(), value: z.number(), max: z.number().positive() }),
]);
export type PanelRow = z.infer<typeof PanelRow>;
export const PanelAction = z.object({ id: ContributionId, label: z.string() });
export type PanelAction = z.infer<typeof PanelAction>;
export const PanelViewModel = z.object({
  id: ContributionId,
  title: z.string(),
  sections: z.array(z.object({ title: z.string().optional(), rows: z.array(PanelRow) })).default([]),
  actions: z.array(PanelAction).default([]),
});
export type PanelViewModel = z.infer<typeof PanelViewModel>;
export const PanelDeclaration = z.object({ kind: z.literal('panel'), ...PanelViewModel.shape });
export type PanelDeclaration = z.infer<typeof PanelDeclaration>;

export const ProviderPreset = z.object({ id: z.string(), label: z.string(), baseUrl: z.string().optional() });
export const ProviderDeclaration = z.object({
  kind: z.literal('provider'),
  id: ContributionId,
  /** The wire dialect: 'openai-compatible', 'anthropic', or a plugin's own. */
  flavor: z.string().min(1),
  presets: z.array(ProviderPreset).default([]),
  models: z.array(ModelInfo),
});
export type ProviderDeclaration = z.infer<typeof ProviderDeclaration>;

export const WalletState = z.object({
  balance: z.number(),
  currency: z.string().min(1),
  /** When the balance was read (epoch ms). */
  refreshedAt: z.number().int().nonnegative().optional(),
  /** False when the account cannot be used (no credit, or the read failed). */
  available: z.boolean().optional(),
  /** Why the last read failed, in a sentence; the balance is then the last good one. */
  error: z.string().optional(),
});
export type WalletState = z.infer<typeof WalletState>;
export const WalletDeclaration = z.object({ kind: z.literal('wallet'), id: ContributionId, provider: z.string().min(1), ...WalletState.shape });
export type WalletDeclaration = z.infer<typeof WalletDeclaration>;

export const AllowancePeriod = z.enum(['session', 'day', 'month']);
export type AllowancePeriod = z.infer<typeof AllowancePeriod>;

export const AllowanceDeclaration = z.object({
  kind: z.literal('allowance'),
  id: ContributionId,
  /** A provider id, or '*' for every provider call. */
  scope: z.string().min(1),
  limit: z.number().nonnegative(),
  unit: z.string().min(1),
  spent: z.number().nonnegative().default(0),
  /** When the count starts from zero again, for the allowances panel: each session, day or month. */
  period: AllowancePeriod.optional(),
  /** The next reset, epoch ms, if the plugin knows it. */
  resetsAt: z.number().int().nonnegative().optional(),
  /** True while it limits nothing (a budget plugin with no budget set): the allowances panel leaves it out. */
  inactive: z.boolean().optional(),
});
export type AllowanceDeclaration = z.infer<typeof AllowanceDeclaration>;

/** The question an allowance answers before each provider call. */
export const AllowanceRequest = z.object({ providerId: z.string(), modelId: z.string(), estimatedInputTokens: z.number().nonnegative().optional() });
export type AllowanceRequest = z.infer<typeof AllowanceRequest>;
/** `spent`, `limit` and `resetsAt`, when given, update what the allowances panel shows; `inactive` holds until a verdict without it. */
export const AllowanceVerdict = z.object({
  allowed: z.boolean(),
  reason: z.string().optional(),
  spent: z.number().nonnegative().optional(),
  limit: z.number().nonnegative().optional(),
  resetsAt: z.number().int().nonnegative().optional(),
  inactive: z.boolean().optional(),
});
export type AllowanceVerdict = z.infer<typeof AllowanceVerdict>;

export const CommandDeclaration = z.object({
  kind: z.literal('command'),
  /** Words from the root of the command tree, e.g. ['usage', 'today']. */
  path: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'a command word is lower-case letters, digits, _ or -')).min(1),
  help: z.string(),
  man: z.string().optional(),
});
export type CommandDeclaration = z.infer<typeof CommandDeclaration>;
export const CommandResult = z.object({ output: z.string(), isError: z.boolean().default(false) });
export type CommandResult = z.infer<typeof CommandResult>;

export const Contribution = z.discriminatedUnion('kind', [
  ToolDeclaration,
  PromptBlockDeclaration,
  StatusSegmentDeclaration,
  PanelDeclaration,
  ProviderDeclaration,
  WalletDeclaration,
  AllowanceDeclaration,
  CommandDeclaration,
]);
export type Contribution = z.infer<typeof Contribution>;
export type ContributionKind = Contribution['kind'];
export const CONTRIBUTION_KINDS: readonly ContributionKind[] = ['tool', 'promptBlock', 'statusSegment', 'panel', 'provider', 'wallet', 'allowance', 'command'];

/** A declaration the plugin chose not to install (e.g. a tool gated on config): normal, nothing installed. */
export const DeclinedContribution = z.object({ kind: z.enum(CONTRIBUTION_KINDS as [ContributionKind, ...ContributionKind[]]), key: z.string(), declined: z.string() });
export type DeclinedContribution = z.infer<typeof DeclinedContribution>;

/** The key a contribution is registered under: its name, id, or command path. */
export function contributionKey(c: Contribution): string {
  switch (c.kind) {
    case 'tool':
      return c.name;
    case 'command':
      return c.path.join(' ');
    default:
      return c.id;
  }
}
