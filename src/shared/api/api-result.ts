import { z } from 'zod';

/** How a failed call reaches the renderer: a code to branch on and a sentence a user can act on. */
export const ApiErrorBody = z.object({
  code: z.enum(['not_found', 'invalid_input', 'conflict', 'unavailable', 'timeout', 'denied', 'internal', 'transport']),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

export const ApiResultEnvelope = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: ApiErrorBody })]);

/** The error a client throws for a failed call. */
export class ApiError extends Error {
  readonly code: ApiErrorBody['code'];
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
  }
}
