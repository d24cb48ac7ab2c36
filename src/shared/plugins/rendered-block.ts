import { z } from 'zod';
import { MAX_PROMPT_BLOCK_CHARS } from './declaration-limits.ts';

/** How many things one render may name as drawn on, and how long each one's label may be. */
export const MAX_BLOCK_SOURCES = 20;
export const MAX_BLOCK_SOURCE_LABEL_CHARS = 200;

/** One thing a prompt block drew on (a memory): its id in the plugin, and a label for the window. */
export const BlockSource = z.strictObject({ id: z.string().min(1).max(200), label: z.string().max(MAX_BLOCK_SOURCE_LABEL_CHARS) });
export type BlockSource = z.infer<typeof BlockSource>;

/**
 * What a plugin's prompt block answers: its text, or its text and the things it drew on. Checked in main as
 * it arrives from the plugin; the sources are recorded on the reply to the request, never sent to a model.
 */
export const RenderedBlock = z.union([
  z.string().max(MAX_PROMPT_BLOCK_CHARS),
  z.strictObject({ text: z.string().max(MAX_PROMPT_BLOCK_CHARS), sources: z.array(BlockSource).max(MAX_BLOCK_SOURCES).optional() }),
]);
export type RenderedBlock = z.infer<typeof RenderedBlock>;
