import { z } from 'zod';

// Entry and message shapes follow pi's session format (version 3) so that sessions import and export
// without loss. Objects are loose: fields we do not know yet are kept, not dropped.

export const EntryId = z.string().min(1).max(128);
export type EntryId = z.infer<typeof EntryId>;

export const TextContent = z.looseObject({ type: z.literal('text'), text: z.string() });
export const ThinkingContent = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });
/** The sha-256 of a stored blob, 64 lowercase hex digits. */
export const BlobHash = z.string().regex(/^[0-9a-f]{64}$/, 'a blob hash is 64 lowercase hex digits (sha-256)');
export type BlobHash = z.infer<typeof BlobHash>;
/**
 * An image: pi's shape carries its bytes as base64 `data`; Amber stores them once as a blob and the entry
 * names it by `blob` (its sha-256), so the entry's hash covers the reference. Exactly one of the two.
 */
export const ImageContent = z
  .looseObject({ type: z.literal('image'), mimeType: z.string(), data: z.string().optional(), blob: BlobHash.optional() })
  .refine((i) => (i.data === undefined) !== (i.blob === undefined), 'an image carries either its data or the hash of a stored blob');
export type ImageContent = z.infer<typeof ImageContent>;
export const ToolCall = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const Usage = z.looseObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
  totalTokens: z.number().nonnegative().optional(),
  cost: z
    .looseObject({
      input: z.number().default(0),
      output: z.number().default(0),
      cacheRead: z.number().default(0),
      cacheWrite: z.number().default(0),
      total: z.number().default(0),
    })
    .optional(),
});
export type Usage = z.infer<typeof Usage>;

export const StopReason = z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']);
export type StopReason = z.infer<typeof StopReason>;

export const UserMessage = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [TextContent, ImageContent]))]),
  timestamp: z.number().optional(),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const AssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [TextContent, ThinkingContent, ToolCall])),
  provider: z.string().optional(),
  model: z.string().optional(),
  usage: Usage.optional(),
  stopReason: StopReason,
  errorMessage: z.string().optional(),
  timestamp: z.number().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const ToolResultMessage = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(z.discriminatedUnion('type', [TextContent, ImageContent])),
  isError: z.boolean(),
  /** Amber's finer outcome; pi only knows isError. */
  status: z.enum(['ok', 'error', 'denied']).optional(),
  timestamp: z.number().optional(),
});
export type ToolResultMessage = z.infer<typeof ToolResultMessage>;

/** Messages from extensions and other roles pi knows (bashExecution, custom, …): kept as they are. */
export const OtherMessage = z.looseObject({ role: z.string().refine((r) => !['user', 'assistant', 'toolResult'].includes(r)) });

// Discriminated first (fast, precise errors); other roles fall through to the loose shape.
export const Message = z.union([z.discriminatedUnion('role', [UserMessage, AssistantMessage, ToolResultMessage]), OtherMessage]);
export type Message = z.infer<typeof Message>;

const base = {
  id: EntryId,
  parentId: EntryId.nullable(),
  timestamp: z.string(),
};

/** A thing a prompt block drew on for the request a reply answers (a memory): shown under the reply, never sent to a model. */
export const ReplySource = z.looseObject({ pluginId: z.string(), id: z.string(), label: z.string() });
export type ReplySource = z.infer<typeof ReplySource>;

/**
 * On an assistant reply, beside the message (so a context built for a model never carries them; absent in older sessions):
 * `sources`, what the prompt blocks of its request drew on; `accountId`, the account (saved connection) it came from —
 * the message's own `provider` names only the kind of server (`custom`), alike for two accounts of one kind.
 */
export const MessageEntry = z.looseObject({
  ...base,
  type: z.literal('message'),
  message: Message,
  sources: z.array(ReplySource).optional(),
  accountId: z.string().optional(),
});
export const ModelChangeEntry = z.looseObject({ ...base, type: z.literal('model_change'), provider: z.string(), modelId: z.string() });
export const ThinkingLevelChangeEntry = z.looseObject({ ...base, type: z.literal('thinking_level_change'), thinkingLevel: z.string() });
export const CompactionEntry = z.looseObject({
  ...base,
  type: z.literal('compaction'),
  summary: z.string(),
  firstKeptEntryId: EntryId,
  tokensBefore: z.number().nonnegative(),
  /** What the summary request spent (charged like a reply: the status bar, the budget), and the model that wrote it. */
  usage: Usage.optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  /** How the summary was made: 'layered' (classify + extract, messages kept word for word) or 'summary' (one summary request). Absent: 'summary'. */
  strategy: z.enum(['layered', 'summary']).optional(),
  /** A layered compaction's messages kept word for word in its summary (older than firstKeptEntryId), classified again by the next compaction. */
  keptEntryIds: z.array(EntryId).optional(),
});
export const BranchSummaryEntry = z.looseObject({ ...base, type: z.literal('branch_summary'), fromId: EntryId, summary: z.string() });
/** Plugin-owned state: never sent to a model. */
export const CustomEntry = z.looseObject({ ...base, type: z.literal('custom'), customType: z.string(), data: z.unknown().optional() });
/** A message a plugin injects into the model's context. */
export const CustomMessageEntry = z.looseObject({
  ...base,
  type: z.literal('custom_message'),
  customType: z.string(),
  content: z.union([z.string(), z.array(z.union([TextContent, ImageContent]))]),
  display: z.boolean().default(true),
});
/** A label on another entry; an absent label clears it. */
export const LabelEntry = z.looseObject({ ...base, type: z.literal('label'), targetId: EntryId, label: z.string().optional() });
export const SessionInfoEntry = z.looseObject({ ...base, type: z.literal('session_info'), name: z.string().optional() });

export const Entry = z.discriminatedUnion('type', [
  MessageEntry,
  ModelChangeEntry,
  ThinkingLevelChangeEntry,
  CompactionEntry,
  BranchSummaryEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  SessionInfoEntry,
]);
export type Entry = z.infer<typeof Entry>;
export type EntryType = Entry['type'];
export const ENTRY_TYPES: readonly EntryType[] = [
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
];

/** What a caller appends: the store assigns id, parentId and timestamp unless given (imports keep theirs). */
export type EntryInput = Entry extends infer E
  ? E extends Entry
    ? Omit<E, 'id' | 'parentId' | 'timestamp'> & Partial<Pick<E, 'id' | 'timestamp'>>
    : never
  : never;
