import { z } from 'zod';
import { ApiErrorBody } from './api-result.ts';

// The frames the WebSocket transport carries (the Electron transport uses ipcMain/ipcRenderer instead).

export const WireRequest = z.object({ id: z.number().int(), channel: z.string().max(100), input: z.unknown() });
export type WireRequest = z.infer<typeof WireRequest>;

export const WireFrame = z.union([
  z.object({ kind: z.literal('result'), id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ kind: z.literal('result'), id: z.number().int(), ok: z.literal(false), error: ApiErrorBody }),
  z.object({ kind: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type WireFrame = z.infer<typeof WireFrame>;

/** The WebSocket path; the per-run token rides in its query string (`?token=`). */
export const WIRE_PATH = '/api/ws';
/** The query parameter that carries the per-run token, in the page's URL and the WebSocket's. */
export const WIRE_TOKEN_PARAM = 'token';
