import type { ImageLimits } from '../../shared/attachments/index.ts';

/** An image ready to send: its data URL, type and size as sent. */
export interface ScaledImage {
  dataUrl: string;
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
}

const QUALITY = 0.85;

/** The size that fits `maxEdge` on the longer edge, keeping the proportions (never larger than it was). */
export function fitWithin(width: number, height: number, maxEdge: number): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function readDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => resolve(String(reader.result)), { once: true });
    reader.addEventListener('error', () => reject(reader.error ?? new Error('The file could not be read.')), { once: true });
    reader.readAsDataURL(blob);
  });
}

function encode(canvas: HTMLCanvasElement, type: string): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded.'))), type, QUALITY),
  );
}

/**
 * The image scaled down in the window before it is sent: one within `limits` goes as it is (a GIF keeps its
 * frames); a larger one is drawn at the size that fits and encoded again (a GIF as PNG, and as JPEG when
 * even that is over the byte limit). Throws a sentence for bytes that are not an image the browser can read.
 */
export async function scaleImage(file: Blob, name: string, limits: ImageLimits): Promise<ScaledImage> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(`${name} is not an image that can be read (its bytes are not a PNG, JPEG, WebP or GIF picture).`);
  }
  try {
    const { width, height } = bitmap;
    if (Math.max(width, height) <= limits.maxEdge && file.size <= limits.maxBytes) {
      return { dataUrl: await readDataUrl(file), mimeType: file.type, width, height, bytes: file.size };
    }
    const size = fitWithin(width, height, limits.maxEdge);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error(`${name} could not be scaled down (no drawing surface).`);
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const types = file.type === 'image/jpeg' ? ['image/jpeg'] : file.type === 'image/webp' ? ['image/webp', 'image/jpeg'] : ['image/png', 'image/jpeg'];
    for (const type of types) {
      const blob = await encode(canvas, type);
      // A browser that cannot write the type answers PNG: take what it wrote, by its own type.
      if (blob.size <= limits.maxBytes) return { dataUrl: await readDataUrl(blob), mimeType: blob.type, ...size, bytes: blob.size };
    }
    throw new Error(`${name} is still over ${Math.round(limits.maxBytes / (1024 * 1024))} MB when scaled down; attach a smaller image.`);
  } finally {
    bitmap.close();
  }
}
