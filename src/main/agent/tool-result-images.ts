import type { ToolOutput } from '../../shared/tools/index.ts';
import { errorMessage } from '../errors.ts';
import { decodeImage } from '../sessions/index.ts';

type ResultPart = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/**
 * A tool result's images as content parts after its text: each checked here (its bytes are the PNG, JPEG,
 * WebP or GIF it says, within the stored limit); one that is not is replaced by a note saying why, so a
 * tool's bad image never refuses the whole result.
 */
export function toolResultImages(images: ToolOutput['images']): ResultPart[] {
  return (images ?? []).map((image, i) => {
    try {
      decodeImage(image.data, image.mimeType, `Image ${i + 1} of the result`);
      return { type: 'image', data: image.data, mimeType: image.mimeType };
    } catch (e) {
      return { type: 'text', text: `[image left out: ${errorMessage(e)}]` };
    }
  });
}
