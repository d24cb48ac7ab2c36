import { z } from 'zod';
import { ModelInfo } from '../providers/index.ts';
import { ToolSpec, withPathParamsCheck } from '../tools/index.ts';
import {
  jsonLimitExceeded,
  MAX_COMMAND_DEPTH,
  MAX_COMMAND_HELP_CHARS,
  MAX_COMMAND_MAN_CHARS,
  MAX_COMMAND_WORD_CHARS,
  MAX_CONTRIBUTION_ID_CHARS,
  MAX_LABEL_CHARS,
  MAX_PANEL_ACTIONS,
  MAX_PANEL_BYTES,
  MAX_PANEL_ROWS,
  MAX_PANEL_SECTIONS,
  MAX_PANEL_TEXT_CHARS,
  MAX_PANEL_TITLE_CHARS,
  MAX_PROVIDER_MODELS,
  MAX_PROVIDER_PRESETS,
  MAX_STATUS_TEXT_CHARS,
  MAX_STATUS_TOOLTIP_CHARS,
  MAX_TOOL_DESCRIPTION_CHARS,
  MAX_TOOL_SCHEMA_BYTES,
  MAX_TOOL_SCHEMA_DEPTH,
  MAX_TOOL_SCHEMA_NODES,
} from './declaration-limits.ts';
import { HookPoint } from './hooks.ts';

// What a plugin declares it contributes, as data. The behaviour behind each declaration (execute, render,
// stream, refresh, check, run) stays in the plugin's process and is reached through PluginApi. Every
// field is capped (declaration-limits.ts); the message of a cap names it.

const n = (value: number) => value.toLocaleString('en');
const ContributionId = z
  .string()
  .regex(new RegExp(`^[a-zA-Z0-9_.:-]{1,${MAX_CONTRIBUTION_ID_CHARS}}$`), `an id is 1-${MAX_CONTRIBUTION_ID_CHARS} letters, digits, _ . : or -`);
const Text = (max: number, what: string) => z.string().max(max, `${what} is at most ${n(max)} characters`);
const Label = (what: string) => Text(MAX_LABEL_CHARS, what).min(1);

/** A tool's parameter schema: a JSON Schema object within MAX_TOOL_SCHEMA_DEPTH, _BYTES and _NODES. */
export const ToolParameterSchema = ToolSpec.shape.parameters.superRefine((schema, ctx) => {
  const exceeded = jsonLimitExceeded(schema, { depth: MAX_TOOL_SCHEMA_DEPTH, bytes: MAX_TOOL_SCHEMA_BYTES, nodes: MAX_TOOL_SCHEMA_NODES });
  if (exceeded === 'depth') ctx.addIssue({ code: 'custom', message: `a tool's parameter schema is nested at most ${MAX_TOOL_SCHEMA_DEPTH} levels deep` });
  if (exceeded === 'size') ctx.addIssue({ code: 'custom', message: `a tool's parameter schema is at most ${n(MAX_TOOL_SCHEMA_BYTES)} bytes as JSON` });
  if (exceeded === 'nodes') ctx.addIssue({ code: 'custom', message: `a tool's parameter schema has at most ${MAX_TOOL_SCHEMA_NODES} objects and arrays` });
});

/** A tool's spec as a plugin sends it, within the caps; its `pathParams` are checked against its parameters like a spec's. */
export const ToolDeclaration = withPathParamsCheck(
  z.object({
    kind: z.literal('tool'),
    ...ToolSpec.shape,
    description: Text(MAX_TOOL_DESCRIPTION_CHARS, "a tool's description"),
    parameters: ToolParameterSchema,
  }),
);
export type ToolDeclaration = z.infer<typeof ToolDeclaration>;

/** Text placed at the head (system prompt) or the tail (after the conversation); higher priority first. */
export const PromptBlockDeclaration = z.object({
  kind: z.literal('promptBlock'),
  id: ContributionId,
  position: z.enum(['head', 'tail']),
  priority: z.number().int().default(0),
  /**
   * 'run': the block's text holds for a whole run, so it is rendered at the run's first model call and again
   * only after a new user message (a steer, a follow-up), not before every model call.
   */
  cache: z.literal('run').optional(),
});
export type PromptBlockDeclaration = z.infer<typeof PromptBlockDeclaration>;

export const StatusSegment = z.object({
  id: ContributionId,
  text: Text(MAX_STATUS_TEXT_CHARS, "a status segment's text"),
  tooltip: Text(MAX_STATUS_TOOLTIP_CHARS, "a status segment's tooltip").optional(),
  /** Higher first, left to right. */
  priority: z.number().int().default(0),
});
export type StatusSegment = z.infer<typeof StatusSegment>;
export const StatusSegmentDeclaration = z.object({ kind: z.literal('statusSegment'), ...StatusSegment.shape });
export type StatusSegmentDeclaration = z.infer<typeof StatusSegmentDeclaration>;

/** A panel is data the renderer draws; plugin code never runs in the renderer. */
const PanelText = Text(MAX_PANEL_TEXT_CHARS, 'a panel text');
const PanelTitle = Text(MAX_PANEL_TITLE_CHARS, 'a panel title');
export const PanelAction = z.object({ id: ContributionId, label: PanelTitle });
export type PanelAction = z.infer<typeof PanelAction>;
/** The most buttons one row carries (Accept / Dismiss, Pin / Delete …). */
export const MAX_PANEL_ROW_ACTIONS = 4;
export const PanelRow = z.discriminatedUnion('type', [
  /** A text row may carry buttons of its own, acting on what it shows (one item of a list). */
  z.object({
    type: z.literal('text'),
    text: PanelText,
    actions: z.array(PanelAction).max(MAX_PANEL_ROW_ACTIONS, `a panel row has at most ${MAX_PANEL_ROW_ACTIONS} actions`).optional(),
  }),
  z.object({ type: z.literal('keyValue'), key: PanelTitle, value: PanelText }),
  z.object({ type: z.literal('progress'), label: PanelTitle, value: z.number(), max: z.number().positive() }),
]);
export type PanelRow = z.infer<typeof PanelRow>;
const panelShape = {
  id: ContributionId,
  title: PanelTitle,
  sections: z
    .array(z.object({ title: PanelTitle.optional(), rows: z.array(PanelRow).max(MAX_PANEL_ROWS, `a panel section has at most ${MAX_PANEL_ROWS} rows`) }))
    .max(MAX_PANEL_SECTIONS, `a panel has at most ${MAX_PANEL_SECTIONS} sections`)
    .default([]),
  actions: z.array(PanelAction).max(MAX_PANEL_ACTIONS, `a panel has at most ${MAX_PANEL_ACTIONS} actions`).default([]),
};
const panelWithinBytes = (panel: unknown, ctx: z.RefinementCtx) => {
  if (jsonLimitExceeded(panel, { depth: 16, bytes: MAX_PANEL_BYTES }) !== null)
    ctx.addIssue({ code: 'custom', message: `a panel is at most ${n(MAX_PANEL_BYTES)} bytes as JSON` });
};
/** Every action a panel offers: its own and its rows'. */
export function panelActionIds(panel: { sections: readonly { rows: readonly PanelRow[] }[]; actions: readonly PanelAction[] }): string[] {
  const rowActions = panel.sections.flatMap((s) => s.rows.flatMap((r) => (r.type === 'text' ? (r.actions ?? []) : []))).map((a) => a.id);
  return [...panel.actions.map((a) => a.id), ...rowActions];
}
/** A panel as data, declared or updated: capped field by field and at MAX_PANEL_BYTES in all. */
export const PanelViewModel = z.object(panelShape).superRefine(panelWithinBytes);
export type PanelViewModel = z.infer<typeof PanelViewModel>;
export const PanelDeclaration = z.object({ kind: z.literal('panel'), ...panelShape }).superRefine(panelWithinBytes);
export type PanelDeclaration = z.infer<typeof PanelDeclaration>;

/** A preset a provider plugin declares (main's own first-run presets are ProviderPreset in shared/providers). */
export const ProviderPresetDeclaration = z.object({
  id: Label("a preset's id"),
  label: Label("a preset's label"),
  baseUrl: Text(2048, "a preset's address").optional(),
});
export const ProviderDeclaration = z.object({
  kind: z.literal('provider'),
  id: ContributionId,
  /** The wire dialect: 'openai-compatible', 'anthropic', or a plugin's own. */
  flavor: Label("a provider's flavor"),
  presets: z.array(ProviderPresetDeclaration).max(MAX_PROVIDER_PRESETS, `a provider has at most ${MAX_PROVIDER_PRESETS} presets`).default([]),
  models: z.array(ModelInfo).max(MAX_PROVIDER_MODELS, `a provider has at most ${n(MAX_PROVIDER_MODELS)} models`),
});
export type ProviderDeclaration = z.infer<typeof ProviderDeclaration>;

export const WalletState = z.object({
  /** Null while the balance is not known (never read, or no read has succeeded yet): never shown as zero. */
  balance: z.number().nullable(),
  currency: Label('a currency'),
  /** When the balance was read (epoch ms). */
  refreshedAt: z.number().int().nonnegative().optional(),
  /** False when the account cannot be used (no credit, or the read failed). */
  available: z.boolean().optional(),
  /** Why the last read failed, in a sentence; the balance is then the last good one. */
  error: Text(MAX_STATUS_TOOLTIP_CHARS, "a wallet's error").optional(),
});
export type WalletState = z.infer<typeof WalletState>;
export const WalletDeclaration = z.object({ kind: z.literal('wallet'), id: ContributionId, provider: Label("a wallet's provider"), ...WalletState.shape });
export type WalletDeclaration = z.infer<typeof WalletDeclaration>;

export const AllowancePeriod = z.enum(['session', 'day', 'month']);
export type AllowancePeriod = z.infer<typeof AllowancePeriod>;

export const AllowanceDeclaration = z.object({
  kind: z.literal('allowance'),
  id: ContributionId,
  /** A provider id, or '*' for every provider call. */
  scope: Label("an allowance's scope"),
  limit: z.number().nonnegative(),
  unit: Label("an allowance's unit"),
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
  path: z
    .array(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]*$/, 'a command word is lower-case letters, digits, _ or -')
        .max(MAX_COMMAND_WORD_CHARS, `a command word is at most ${MAX_COMMAND_WORD_CHARS} characters`),
    )
    .min(1)
    .max(MAX_COMMAND_DEPTH, `a command path has at most ${MAX_COMMAND_DEPTH} words`),
  help: Text(MAX_COMMAND_HELP_CHARS, "a command's help"),
  man: Text(MAX_COMMAND_MAN_CHARS, "a command's manual").optional(),
});
export type CommandDeclaration = z.infer<typeof CommandDeclaration>;
/** What a plugin's command answers over the pipe (the palette's own result is CommandResult in shared/commands). */
export const PluginCommandResult = z.object({ output: z.string(), isError: z.boolean().default(false) });
export type PluginCommandResult = z.infer<typeof PluginCommandResult>;

/**
 * A call into the plugin at one interception point of a run (hooks.ts); one per point per plugin.
 * `advisory`: a tool_call hook that fails or times out is skipped (fails open) instead of blocking the call;
 * at the other points a failing hook is always skipped.
 */
export const HookDeclaration = z.object({ kind: z.literal('hook'), point: HookPoint, advisory: z.boolean().optional() });
export type HookDeclaration = z.infer<typeof HookDeclaration>;

/**
 * A method main calls by name with plain-data arguments, for a plugin that serves main itself (the MCP
 * plugin's servers, prompts and resources). Both sides check the arguments and the answer against one
 * schema table in shared (PluginMethodTable); nothing is parsed out of command text.
 */
export const MethodDeclaration = z.object({ kind: z.literal('method'), name: ContributionId });
export type MethodDeclaration = z.infer<typeof MethodDeclaration>;

export const Contribution = z.discriminatedUnion('kind', [
  ToolDeclaration,
  PromptBlockDeclaration,
  StatusSegmentDeclaration,
  PanelDeclaration,
  ProviderDeclaration,
  WalletDeclaration,
  AllowanceDeclaration,
  CommandDeclaration,
  HookDeclaration,
  MethodDeclaration,
]);
export type Contribution = z.infer<typeof Contribution>;
export type ContributionKind = Contribution['kind'];
export const CONTRIBUTION_KINDS: readonly ContributionKind[] = [
  'tool',
  'promptBlock',
  'statusSegment',
  'panel',
  'provider',
  'wallet',
  'allowance',
  'command',
  'hook',
  'method',
];

/** A declaration the plugin chose not to install (e.g. a tool gated on config): normal, nothing installed. */
export const DeclinedContribution = z.object({
  kind: z.enum(CONTRIBUTION_KINDS as [ContributionKind, ...ContributionKind[]]),
  key: z.string(),
  declined: z.string(),
});
export type DeclinedContribution = z.infer<typeof DeclinedContribution>;

/** The key a contribution is registered under: its name, id, or command path. */
export function contributionKey(c: Contribution): string {
  switch (c.kind) {
    case 'tool':
    case 'method':
      return c.name;
    case 'command':
      return c.path.join(' ');
    case 'hook':
      return c.point;
    default:
      return c.id;
  }
}
