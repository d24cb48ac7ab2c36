/** Codes the API edge turns into `{ code, message }`; messages are sentences a user can act on. */
export type ErrorCode = 'not_found' | 'invalid_input' | 'conflict' | 'unavailable' | 'timeout' | 'denied' | 'internal';

export class AmberError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AmberError';
    this.code = code;
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
