import { z } from 'zod';
import { IMAGE_MIME_TYPES, MAX_STORED_IMAGE_BYTES, MAX_TEXT_ATTACHMENT_CHARS } from './image-limits.ts';

/** Base64 of at most MAX_STORED_IMAGE_BYTES bytes (4 characters per 3 bytes), padding included. */
const MAX_BASE64_CHARS = Math.ceil(MAX_STORED_IMAGE_BYTES / 3) * 4;

/**
 * What the message box sends with a message: an image (already scaled down by the window) as a data URL,
 * or a text file's words with its name. Main checks the image's bytes again (its type by its first bytes,
 * its size against the provider's limit) before anything is stored.
 */
export const ImageAttachment = z.object({
  kind: z.literal('image'),
  name: z.string().min(1).max(255),
  /** `data:<type>;base64,<data>` of one of IMAGE_MIME_TYPES. */
  dataUrl: z
    .string({ error: 'an image attachment carries its contents as a data URL, never a file path' })
    .max(MAX_BASE64_CHARS + 40, `an image is at most ${MAX_STORED_IMAGE_BYTES / (1024 * 1024)} MB`)
    .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/, `an image is sent as a base64 data URL of ${IMAGE_MIME_TYPES.join(', ')}`),
});
export type ImageAttachment = z.infer<typeof ImageAttachment>;

export const TextAttachment = z.object({
  kind: z.literal('text'),
  name: z.string().min(1).max(255),
  text: z
    .string({ error: 'a text attachment carries its words, never a file path' })
    .max(MAX_TEXT_ATTACHMENT_CHARS, `a text file is attached up to ${MAX_TEXT_ATTACHMENT_CHARS.toLocaleString('en')} characters`),
});
export type TextAttachment = z.infer<typeof TextAttachment>;

/** An image already stored (a message edited into a new version keeps its images): named by its blob's hash. */
export const StoredImageAttachment = z.object({
  kind: z.literal('stored'),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'a stored image is named by the sha-256 of its bytes'),
});
export type StoredImageAttachment = z.infer<typeof StoredImageAttachment>;

export const Attachment = z.discriminatedUnion('kind', [ImageAttachment, TextAttachment, StoredImageAttachment]);
export type Attachment = z.infer<typeof Attachment>;

/** The type and base64 data of an image attachment's data URL (already checked by the schema's pattern). */
export function splitDataUrl(dataUrl: string): { mimeType: string; data: string } {
  const comma = dataUrl.indexOf(',');
  return { mimeType: dataUrl.slice('data:'.length, dataUrl.indexOf(';')), data: dataUrl.slice(comma + 1) };
}

/** A text file as the model reads it: its name, then its words in a fence. */
export function textAttachmentPart(file: TextAttachment): string {
  const fence = file.text.includes('```') ? '````' : '```';
  return `Attached file ${file.name}:\n${fence}\n${file.text}\n${fence}`;
}
