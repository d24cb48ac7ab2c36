import { type Attachment, imageLimitsFor, splitDataUrl, textAttachmentPart } from '../../shared/attachments/index.ts';
import type { UserMessage } from '../../shared/sessions/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import { type BlobStore, decodeImage } from '../sessions/index.ts';

/** What main knows of the model a message goes to: whether it reads images (null: the catalog does not say) and its dialect. */
export interface AttachmentTarget {
  modelId: string;
  images: boolean | null;
  dialect: string | null;
}

/**
 * A message's words and attachments as the content of one user message: the words, each text file as text
 * with its name, then the images (checked again here: their bytes are the type they say and within the
 * provider's limit). A model the catalog says reads no images is refused images with a sentence, never
 * sent them silently dropped. Throws invalid_input; nothing is stored then.
 */
export function messageContent(
  text: string,
  attachments: readonly Attachment[],
  target: AttachmentTarget,
  blobs: Pick<BlobStore, 'get'>,
): UserMessage['content'] {
  if (attachments.length === 0) return text;
  const images = attachments.filter((a) => a.kind !== 'text');
  if (images.length > 0 && target.images === false) {
    throw new AmberError(
      'invalid_input',
      `${target.modelId} does not accept images: remove ${images.length === 1 ? 'the image' : `the ${images.length} images`} or choose a model that reads images.`,
    );
  }
  const limits = imageLimitsFor(target.dialect);
  const parts: Exclude<UserMessage['content'], string> = text === '' ? [] : [{ type: 'text', text }];
  // `attachment` names the file, so the window shows it as a file and not as words typed (providers send the text only).
  for (const file of attachments) if (file.kind === 'text') parts.push({ type: 'text', text: textAttachmentPart(file), attachment: file.name });
  for (const image of images) {
    if (image.kind === 'stored') {
      // Read to check it is a stored image; the entry names it by its hash, as the message it came from did.
      const stored = blobs.get(image.hash);
      if (!stored) throw new AmberError('invalid_input', `The image ${image.hash.slice(0, 12)}… is no longer stored; attach it again.`);
      parts.push({ type: 'image', mimeType: stored.mimeType, blob: image.hash });
      continue;
    }
    const { mimeType, data } = splitDataUrl(image.dataUrl);
    try {
      decodeImage(data, mimeType, `The image ${image.name}`, limits.maxBytes);
    } catch (e) {
      throw new AmberError('invalid_input', errorMessage(e));
    }
    parts.push({ type: 'image', mimeType, data });
  }
  return parts;
}
