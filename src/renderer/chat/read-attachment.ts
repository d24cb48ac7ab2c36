import {
  type Attachment,
  type ImageAttachment,
  type ImageLimits,
  isImageMimeType,
  MAX_TEXT_ATTACHMENT_CHARS,
  type TextAttachment,
} from '../../shared/attachments/index.ts';
import { scaleImage } from './scale-image.ts';

/** An attachment in the message box: what is sent, with what its chip shows. */
export type PendingAttachment = (ImageAttachment | TextAttachment) & { id: string; bytes: number; width?: number; height?: number };

const TEXT_EXTENSIONS = new Set(
  'txt md markdown json jsonl csv tsv log xml yaml yml toml ini cfg conf env html htm css scss js mjs cjs jsx ts tsx py rb go rs java kt c h cc cpp hpp cs swift php sh bash zsh sql graphql proto r lua pl diff patch tex rst adoc svg'.split(
    ' ',
  ),
);
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|sql|x-sh|x-python|typescript|ld\+json))/;

/** What a file is attached as, by its type and name: an image, a text file, or nothing (refused). */
export function attachmentKind(name: string, type: string): 'image' | 'text' | null {
  if (isImageMimeType(type)) return 'image';
  if (type.startsWith('image/') && type !== 'image/svg+xml') return null;
  if (TEXT_TYPES.test(type)) return 'text';
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  return TEXT_EXTENSIONS.has(extension) ? 'text' : null;
}

/** The sentence that refuses a file of a kind that cannot be attached. */
export function refusal(name: string, type: string): string {
  if (type.startsWith('image/')) return `${name} is a ${type.slice('image/'.length).toUpperCase()} image; attach a PNG, JPEG, WebP or GIF instead.`;
  return `${name} is neither an image (PNG, JPEG, WebP, GIF) nor a text file, so it cannot be attached.`;
}

let next = 0;

/**
 * A file the user pasted, dropped or picked, read in the window (nothing but its contents goes to main):
 * an image scaled down to `limits`, a text file's words. Throws a sentence for a file that cannot be attached.
 */
export async function readAttachment(file: File, limits: ImageLimits): Promise<PendingAttachment> {
  const name = file.name || (file.type.startsWith('image/') ? 'pasted image' : 'pasted file');
  const kind = attachmentKind(name, file.type);
  if (kind === null) throw new Error(refusal(name, file.type));
  const id = `att-${++next}`;
  if (kind === 'image') {
    const image = await scaleImage(file, name, limits);
    return { id, kind: 'image', name, dataUrl: image.dataUrl, bytes: image.bytes, width: image.width, height: image.height };
  }
  if (file.size > MAX_TEXT_ATTACHMENT_CHARS * 4)
    throw new Error(`${name} is too long to attach (over ${MAX_TEXT_ATTACHMENT_CHARS.toLocaleString('en')} characters).`);
  const text = await file.text();
  if (text.includes('\u0000')) throw new Error(`${name} is not a text file (it holds binary data), so it cannot be attached.`);
  if (text.length > MAX_TEXT_ATTACHMENT_CHARS)
    throw new Error(`${name} is too long to attach (over ${MAX_TEXT_ATTACHMENT_CHARS.toLocaleString('en')} characters).`);
  return { id, kind: 'text', name, text, bytes: file.size };
}

/** What is sent of a pending attachment (the chip's own fields stay in the window). */
export function toAttachment(pending: PendingAttachment): Attachment {
  return pending.kind === 'image' ? { kind: 'image', name: pending.name, dataUrl: pending.dataUrl } : { kind: 'text', name: pending.name, text: pending.text };
}
