import type { Entry, EntryInput, Message } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import type { BlobStore } from './blob-store.ts';
import { decodeImage } from './image-check.ts';

type Part = { type: string; [key: string]: unknown };

/** The content arrays of an entry that may carry images: a message's, a custom message's. */
function mapContent(input: EntryInput, map: (content: Part[]) => Part[]): EntryInput {
  if (input.type === 'message') {
    const content = (input.message as { content?: unknown }).content;
    // Most entries carry no image: they pass as they are, at no cost.
    if (!Array.isArray(content) || !content.some((p: Part) => p?.type === 'image')) return input;
    return { ...input, message: { ...(input.message as object), content: map(content as Part[]) } } as EntryInput;
  }
  if (input.type === 'custom_message' && Array.isArray(input.content) && input.content.some((p) => p.type === 'image'))
    return { ...input, content: map(input.content as Part[]) } as EntryInput;
  return input;
}

/**
 * The entry with each image's data stored as a blob and named by its hash (so the entry, and its chained
 * hash, carry the reference). An image whose bytes are not what it says, or one naming a blob that is not
 * stored, refuses the whole entry. Runs inside the append's transaction: a refusal stores nothing.
 */
export function externalizeImages(input: EntryInput, blobs: BlobStore): EntryInput {
  // An entry that comes with its id (an import) is named, so a refused file says which line to look at.
  const what = input.id === undefined ? 'the message' : `entry ${input.id}`;
  return mapContent(input, (content) =>
    content.map((part, i) => {
      if (part.type !== 'image') return part;
      const { data, ...rest } = part;
      const mimeType = String(part['mimeType'] ?? '');
      if (typeof data === 'string') {
        if (part['blob'] !== undefined)
          throw new AmberError('invalid_input', `Image ${i + 1} of ${what} carries both its data and a stored image's hash; it must carry one.`);
        let bytes: Buffer;
        try {
          bytes = decodeImage(data, mimeType, `Image ${i + 1} of ${what}`);
        } catch (e) {
          throw new AmberError('invalid_input', (e as Error).message);
        }
        return { ...rest, blob: blobs.put(bytes, mimeType) };
      }
      const hash = part['blob'];
      if (hash === undefined) throw new AmberError('invalid_input', `Image ${i + 1} of ${what} carries neither its data nor a stored image's hash.`);
      if (typeof hash === 'string' && !blobs.has(hash)) {
        throw new AmberError('invalid_input', `Image ${i + 1} of ${what} names a stored image (${hash.slice(0, 12)}…) that does not exist.`);
      }
      return part;
    }),
  );
}

/** The hashes of the stored images an entry names. */
export function imageHashes(entry: Entry): string[] {
  const content = entry.type === 'message' ? (entry.message as { content?: unknown }).content : entry.type === 'custom_message' ? entry.content : undefined;
  if (!Array.isArray(content)) return [];
  return (content as Part[]).flatMap((p) => (p?.type === 'image' && typeof p['blob'] === 'string' ? [p['blob']] : []));
}

/** What stands for an image whose stored bytes are gone (another program deleted the row). */
export const MISSING_IMAGE_NOTE = '[an image that is no longer stored]';

/** A content array with each image's blob read back as base64 data (pi's shape, what providers send). */
function inlineContent(content: readonly Part[], blobs: Pick<BlobStore, 'get'>): Part[] {
  return content.map((p) => {
    if (p?.type !== 'image' || typeof p['blob'] !== 'string') return p;
    const stored = blobs.get(p['blob']);
    if (!stored) return { type: 'text', text: MISSING_IMAGE_NOTE };
    const { blob: _blob, ...rest } = p;
    return { ...rest, mimeType: stored.mimeType, data: stored.bytes.toString('base64') };
  });
}

const namesBlob = (content: unknown): content is Part[] =>
  Array.isArray(content) && content.some((p: Part) => p?.type === 'image' && typeof p['blob'] === 'string');

/** The messages with each image's blob read back as base64 data, as providers send it. */
export function inlineImages(messages: readonly Message[], blobs: Pick<BlobStore, 'get'>): Message[] {
  return messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    return namesBlob(content) ? ({ ...m, content: inlineContent(content, blobs) } as Message) : m;
  });
}

/** An entry with its images' data inline, as pi stores images (an export). */
export function inlineEntryImages(entry: Entry, blobs: Pick<BlobStore, 'get'>): Entry {
  if (entry.type === 'message') {
    const [message] = inlineImages([entry.message], blobs);
    return message === entry.message ? entry : { ...entry, message: message! };
  }
  if (entry.type === 'custom_message' && namesBlob(entry.content)) return { ...entry, content: inlineContent(entry.content, blobs) } as Entry;
  return entry;
}
