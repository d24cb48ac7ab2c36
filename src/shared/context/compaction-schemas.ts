import { z } from 'zod';

// The answers of layer 2 of context compression (classify, then extract) and what main tells plugins of
// the memories an extraction found. Checked by zod where they arrive; sent to the model as JSON schemas.

/** How a message of the conversation is kept: core word for word, context while there is room, prune never. */
export const MessageClass = z.enum(['core', 'context', 'prune']);
export type MessageClass = z.infer<typeof MessageClass>;

/** The classify request's answer: one item per message id it was shown. */
export const ClassifyAnswer = z.object({
  items: z.array(z.object({ id: z.string(), class: MessageClass })),
});
export type ClassifyAnswer = z.infer<typeof ClassifyAnswer>;

export const MemoryKind = z.enum(['user', 'project', 'procedure']);
export type MemoryKind = z.infer<typeof MemoryKind>;

/** Something worth remembering beyond this conversation, as the extraction found it. */
export const ExtractedMemory = z.object({ text: z.string().min(1), kind: MemoryKind });
export type ExtractedMemory = z.infer<typeof ExtractedMemory>;

/** A procedure that worked, worth reusing: a name and its steps. */
export const ExtractedSkill = z.object({ name: z.string().min(1), steps: z.array(z.string()) });
export type ExtractedSkill = z.infer<typeof ExtractedSkill>;

/** The structured working summary that replaces what was not kept word for word. */
export const StructuredSummary = z.object({
  goal: z.string(),
  decisions: z.array(z.string()),
  files: z.array(z.string()),
  openErrors: z.array(z.string()),
  nextStep: z.string(),
});
export type StructuredSummary = z.infer<typeof StructuredSummary>;

/** The extract request's answer. */
export const ExtractAnswer = z.object({
  summary: StructuredSummary,
  memories: z.array(ExtractedMemory),
  skills: z.array(ExtractedSkill),
});
export type ExtractAnswer = z.infer<typeof ExtractAnswer>;

/** The payload of the `memory.extracted` plugin event topic: the memories one compaction entry's extraction found. */
export const MemoriesExtracted = z.object({
  sessionId: z.string(),
  /** The compaction entry written with them. */
  entryId: z.string(),
  /** The conversation's workspace folder (for project memories); absent when it has none. */
  workspace: z.string().optional(),
  memories: z.array(ExtractedMemory),
});
export type MemoriesExtracted = z.infer<typeof MemoriesExtracted>;
