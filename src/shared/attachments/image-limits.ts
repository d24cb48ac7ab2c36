/** The image types a message may carry: what both dialects accept. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

export function isImageMimeType(type: string): type is ImageMimeType {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(type);
}

/** How large one image may be for a provider: its bytes (decoded) and the longest edge the window scales it to. */
export interface ImageLimits {
  maxBytes: number;
  maxEdge: number;
}

/**
 * Per dialect: Anthropic refuses an image over 5 MB and scales down anything over about 1568 px on its
 * long edge; OpenAI-compatible servers take up to 20 MB and work at 2048 px. Unknown: the tighter one.
 */
export const IMAGE_LIMITS: Readonly<Record<string, ImageLimits>> = {
  anthropic: { maxBytes: 5 * 1024 * 1024, maxEdge: 1568 },
  'openai-compatible': { maxBytes: 20 * 1024 * 1024, maxEdge: 2048 },
};

export function imageLimitsFor(dialect: string | null | undefined): ImageLimits {
  return (dialect ? IMAGE_LIMITS[dialect] : undefined) ?? IMAGE_LIMITS['anthropic']!;
}

/** The largest image the store keeps, whatever the provider (a tool result's image included). */
export const MAX_STORED_IMAGE_BYTES = 20 * 1024 * 1024;

/** A text file attached to a message: at most this many characters. */
export const MAX_TEXT_ATTACHMENT_CHARS = 200_000;

/** Attachments one message may carry. */
export const MAX_ATTACHMENTS = 10;
