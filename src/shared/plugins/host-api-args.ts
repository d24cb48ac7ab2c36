import { z } from 'zod';
import { ProviderEvent } from '../providers/index.ts';
import { PanelViewModel, StatusSegment, ToolDeclaration, WalletState } from './contributions.ts';
import { MAX_DECLARATIONS } from './declaration-limits.ts';
import { LOG_LEVELS, MAX_TOOL_UPDATE_CHARS } from '../plugin-wire/index.ts';
import type { HostApiMethod } from '../plugin-wire/index.ts';
import { ElicitationRequest } from '../elicitation/index.ts';

// The arguments of each HostApi method, as main accepts them from a plugin process: one tuple schema per
// method. A call whose arguments fail its schema never reaches main's HostApi; it is dropped and counted.

/** A plugin's log level, as main accepts it. */
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;

const Topic = StatusSegment.shape.id;
/** Stream ids are made by main; a plugin only echoes them. */
const StreamId = z.string().min(1).max(128);
const Plain = z.unknown();

export const GetConfigArgs = z.tuple([]);
export const EmitArgs = z.tuple([Topic, Plain]);
/** Which events of a topic a plugin wants, by their `type` (agent events): the others are not sent to it. */
export const EventFilter = z.object({ types: z.array(z.string().min(1).max(64)).max(64) }).strict();
export type EventFilter = z.infer<typeof EventFilter>;
export const SubscribeArgs = z.union([z.tuple([Topic]), z.tuple([Topic, EventFilter.nullable()])]);
export const UnsubscribeArgs = z.tuple([Topic]);
export const UpdateStatusArgs = z.tuple([StatusSegment]);
export const UpdatePanelArgs = z.tuple([PanelViewModel]);
export const UpdateWalletArgs = z.tuple([Topic, WalletState]);
export const LogArgs = z.union([z.tuple([LogLevel, z.string()]), z.tuple([LogLevel, z.string(), z.number().int().nonnegative().optional()])]);
export const ProviderEventArgs = z.tuple([StreamId, z.array(ProviderEvent)]);
/** Call ids are made by main too; the text is a tool's progress, capped. */
export const ToolUpdateArgs = z.tuple([z.string().min(1).max(128), z.string().max(MAX_TOOL_UPDATE_CHARS)]);

/** The whole set of tools a plugin offers beside its declared ones, each within the declaration caps. */
export const SetToolsArgs = z.tuple([z.array(ToolDeclaration).max(MAX_DECLARATIONS, `a plugin may set at most ${MAX_DECLARATIONS} tools`)]);

/** A form for the user, checked whole: a malformed one is refused with a sentence and never shown. */
export const ElicitArgs = z.tuple([ElicitationRequest]);
export const ElicitCancelArgs = z.tuple([ElicitationRequest.shape.requestId]);

/** Per HostApi method, the schema of its argument tuple. */
export const HostApiArgs: { readonly [M in HostApiMethod]: z.ZodType<unknown[]> } = {
  $getConfig: GetConfigArgs,
  $emit: EmitArgs,
  $subscribe: SubscribeArgs,
  $unsubscribe: UnsubscribeArgs,
  $updateStatus: UpdateStatusArgs,
  $updatePanel: UpdatePanelArgs,
  $updateWallet: UpdateWalletArgs,
  $log: LogArgs,
  $providerEvent: ProviderEventArgs,
  $toolUpdate: ToolUpdateArgs,
  $setTools: SetToolsArgs,
  $elicit: ElicitArgs,
  $elicitCancel: ElicitCancelArgs,
};
