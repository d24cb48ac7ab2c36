import { MAX_STORED_IMAGE_BYTES } from '../../shared/attachments/index.ts';

/** The image type the bytes begin with (PNG, JPEG, WebP, GIF), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An image's base64 data decoded and checked: its bytes begin as its declared type says and it is within
 * `maxBytes`. Throws a sentence naming what is wrong (`what` names the image to the user).
 */
export function decodeImage(data: string, mimeType: string, what = 'The image', maxBytes = MAX_STORED_IMAGE_BYTES): Buffer {
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw new Error(`${what} is not valid base64 data.`);
  if ((data.length / 4) * 3 > maxBytes + 2) throw new Error(`${what} is larger than ${formatBytes(maxBytes)}; send a smaller one.`);
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > maxBytes)
    throw new Error(`${what} is ${formatBytes(bytes.length)}, over the ${formatBytes(maxBytes)} this model's provider takes; send a smaller one.`);
  const found = sniffImageType(bytes);
  if (found === null) throw new Error(`${what} is not a PNG, JPEG, WebP or GIF image (its bytes are not an image's).`);
  if (found !== mimeType) throw new Error(`${what} says it is ${mimeType} but its bytes are ${found}.`);
  return bytes;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
