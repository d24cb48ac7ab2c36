import type { ModelInfo } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import type { ProviderResolver } from '../agent/index.ts';
import { type BlobStore, inlineImages } from '../sessions/index.ts';

type Part = { type: string; [key: string]: unknown };

/** What a model that does not read images is sent instead of one (the window said so before sending). */
export const unseenImageNote = (modelId: string): string => `[an image was attached here; ${modelId} does not accept images, so it was not sent]`;

/**
 * The messages as one request carries them: each stored image read back as base64 data, or, for a model
 * the catalog says reads no images, a note in its place. Only the request changes; the session keeps its images.
 */
export function imagesForModel(messages: readonly Message[], model: ModelInfo, blobs: Pick<BlobStore, 'get'>): Message[] {
  if (model.images !== false) return inlineImages(messages, blobs);
  return messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    if (!Array.isArray(content) || !content.some((p: Part) => p?.type === 'image')) return m;
    return { ...m, content: (content as Part[]).map((p) => (p.type === 'image' ? { type: 'text', text: unseenImageNote(model.id) } : p)) } as Message;
  });
}

/** Every provider call through `resolve` carries the images its messages name by hash (see imagesForModel). */
export function withStoredImages(resolve: ProviderResolver, blobs: Pick<BlobStore, 'get'>): ProviderResolver {
  return async (ref) => {
    const resolved = await resolve(ref);
    const { stream } = resolved;
    return { ...resolved, stream: (request, signal) => stream({ ...request, messages: imagesForModel(request.messages, request.model, blobs) }, signal) };
  };
}
