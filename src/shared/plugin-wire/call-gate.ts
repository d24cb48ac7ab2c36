// The gate in front of comlink, without zod (both ends of the plugin pipe use it; the plugin side never
// loads zod). comlink's `expose` would walk any property path a peer names and GET, SET or CONSTRUCT there;
// only what passes these checks is rebuilt as a fresh message and handed to comlink:
//   a request: an APPLY of one known method (a path of length one) whose arguments are all plain data;
//   a reply:   a plain-data value, or a thrown error reduced to its message, name and stack.
import { checkPlainData } from './plain-data.ts';

/** A request that passed the gate. */
export interface GatedCall {
  id: string;
  method: string;
  args: unknown[];
}

export type GateResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const MAX_ID_LENGTH = 128;
const MAX_ARGUMENTS = 16;
const MAX_ERROR_TEXT = 16 * 1024;

const own = (o: object, key: string): boolean => Object.hasOwn(o, key);

function isRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function readId(m: Record<string, unknown>): string | null {
  const id = own(m, 'id') ? m.id : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH ? id : null;
}

/** The envelope `{ ch, m }` every message on the pipe is; null for anything else. */
export function readEnvelope(message: unknown): { ch: string; m: unknown } | null {
  if (!isRecord(message) || !own(message, 'ch') || typeof message.ch !== 'string') return null;
  return { ch: message.ch, m: own(message, 'm') ? message.m : undefined };
}

/** Checks a comlink request against `methods`; `maxBytes` bounds the walk over its arguments. */
export function readCall(m: unknown, methods: ReadonlySet<string>, maxBytes?: number): GateResult<GatedCall> {
  if (!isRecord(m)) return { ok: false, reason: 'it is not an object' };
  const type = own(m, 'type') ? m.type : undefined;
  if (type !== 'APPLY')
    return { ok: false, reason: `it is a ${typeof type === 'string' ? type.slice(0, 16) : 'typeless'} message, and only calls are accepted` };
  const id = readId(m);
  if (id === null) return { ok: false, reason: 'it has no valid call id' };
  const path = own(m, 'path') ? m.path : undefined;
  if (!Array.isArray(path) || path.length !== 1 || typeof path[0] !== 'string') return { ok: false, reason: 'its path is not one method name' };
  const method = path[0];
  if (!methods.has(method)) return { ok: false, reason: `it calls ${method.slice(0, 64)}, which is not a known method` };
  const list = own(m, 'argumentList') ? m.argumentList : undefined;
  if (!Array.isArray(list) || list.length > MAX_ARGUMENTS) return { ok: false, reason: 'its argument list is malformed' };
  const args: unknown[] = [];
  for (const wire of list) {
    // JSON leaves out an undefined value, so `{ type: 'RAW' }` is an undefined argument.
    if (!isRecord(wire) || wire.type !== 'RAW') return { ok: false, reason: 'an argument is not plain data' };
    args.push(own(wire, 'value') ? wire.value : undefined);
  }
  const plain = checkPlainData(args, maxBytes);
  if (!plain.ok) return { ok: false, reason: `its arguments are not plain data: ${plain.reason}` };
  return { ok: true, value: { id, method, args } };
}

/** One note (a one-way call, CHANNEL_NOTE) that passed the gate. */
export interface GatedNote {
  method: string;
  args: unknown[];
}

/**
 * Checks the notes of one CHANNEL_NOTE message against `methods`: a list of at most `maxNotes` pairs
 * `[method, args]` whose arguments are plain data. All or nothing: one bad note refuses the message.
 */
export function readNotes(m: unknown, methods: ReadonlySet<string>, maxNotes: number, maxBytes?: number): GateResult<GatedNote[]> {
  if (!Array.isArray(m) || m.length === 0 || m.length > maxNotes) return { ok: false, reason: 'it is not a list of notes' };
  const notes: GatedNote[] = [];
  for (const note of m as unknown[]) {
    if (!Array.isArray(note) || note.length !== 2 || typeof note[0] !== 'string') return { ok: false, reason: 'a note is not a method and its arguments' };
    const [method, args] = note as [string, unknown];
    if (!methods.has(method)) return { ok: false, reason: `a note names ${method.slice(0, 64)}, which is not a method sent as a note` };
    if (!Array.isArray(args) || args.length > MAX_ARGUMENTS) return { ok: false, reason: "a note's argument list is malformed" };
    notes.push({ method, args });
  }
  const plain = checkPlainData(
    notes.map((n) => n.args),
    maxBytes,
  );
  if (!plain.ok) return { ok: false, reason: `its arguments are not plain data: ${plain.reason}` };
  return { ok: true, value: notes };
}

/** A fresh comlink APPLY message for a call that passed the gate (with the arguments a schema returned). */
export function applyMessage(id: string, method: string, args: readonly unknown[]): Record<string, unknown> {
  return { id, type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })) };
}

/** The id a reply answers, when it has a valid one (to look it up among the pending calls). */
export function replyId(m: unknown): string | null {
  return isRecord(m) ? readId(m) : null;
}

/** Checks a comlink reply and rebuilds it: a plain value, or an error reduced to strings. */
export function readReply(m: unknown, maxBytes?: number): GateResult<Record<string, unknown>> {
  if (!isRecord(m)) return { ok: false, reason: 'it is not an object' };
  const id = readId(m);
  if (id === null) return { ok: false, reason: 'it has no valid call id' };
  const type = own(m, 'type') ? m.type : undefined;
  const value = own(m, 'value') ? m.value : undefined;
  if (type === 'RAW') {
    const plain = checkPlainData(value ?? null, maxBytes);
    if (!plain.ok) return { ok: false, reason: `its value is not plain data: ${plain.reason}` };
    return { ok: true, value: { id, type: 'RAW', value } };
  }
  if (type !== 'HANDLER' || m.name !== 'throw' || !isRecord(value)) return { ok: false, reason: 'it is neither a value nor an error' };
  const thrown = own(value, 'value') ? value.value : undefined;
  if (value.isError === true) {
    if (!isRecord(thrown) || typeof thrown.message !== 'string') return { ok: false, reason: 'its error has no message' };
    return {
      ok: true,
      value: errorReply(
        id,
        thrown.message,
        typeof thrown.name === 'string' ? thrown.name : 'Error',
        typeof thrown.stack === 'string' ? thrown.stack : undefined,
      ),
    };
  }
  const plain = checkPlainData(thrown ?? null, maxBytes);
  if (!plain.ok) return { ok: false, reason: `its thrown value is not plain data: ${plain.reason}` };
  return { ok: true, value: { id, type: 'HANDLER', name: 'throw', value: { isError: false, value: thrown } } };
}

/** A comlink reply that makes the call `id` reject with an Error carrying `message`. */
export function errorReply(id: string, message: string, name = 'Error', stack?: string): Record<string, unknown> {
  const error: Record<string, string> = { message: message.slice(0, MAX_ERROR_TEXT), name: name.slice(0, 64) };
  if (stack !== undefined) error.stack = stack.slice(0, MAX_ERROR_TEXT);
  return { id, type: 'HANDLER', name: 'throw', value: { isError: true, value: error } };
}

const HEAD = /^\{"ch":"([a-z]{1,16})","m":\{"id":"([^"\\]{1,128})"/;
const CHANNEL = /^\{"ch":"([a-z]{1,16})"/;
const TAIL = /"id":"([^"\\]{1,128})"\}\}$/;

/**
 * The channel and call id of a serialized envelope, read from its first and last characters only, so that
 * a message too large to parse can still be answered. Requests carry their id first, replies last.
 */
export function peekEnvelope(text: string): { ch?: string; id?: string } {
  const head = text.slice(0, 256);
  const request = HEAD.exec(head);
  if (request) return { ch: request[1], id: request[2] };
  const ch = CHANNEL.exec(head)?.[1];
  const id = TAIL.exec(text.slice(-256))?.[1];
  return { ...(ch ? { ch } : {}), ...(id ? { id } : {}) };
}
