import { z } from 'zod';
import { Entry } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';

/** An entry as stored: its row in `entries`, payload still text. */
export interface EntryRow {
  seq: number;
  id: string;
  parent_id: string | null;
  type: string;
  depth: number;
  model_ref: string | null;
  thinking_ref: string | null;
  payload: string;
  hash: string;
}

/** The stored fields an entry appended under a row builds on. */
export interface ParentRow {
  depth: number;
  model_ref: string | null;
  thinking_ref: string | null;
  hash: string;
}

export function describeZodError(error: z.ZodError): string {
  return z.prettifyError(error).replace(/\n+/g, '; ');
}

/** The entry a row holds, validated; a payload that is not an entry says it was changed outside Amber. */
export function parseEntryRow(row: Pick<EntryRow, 'id' | 'payload'>): Entry {
  let value: unknown;
  try {
    value = JSON.parse(row.payload);
  } catch {
    throw new AmberError(
      'internal',
      `Stored entry ${row.id} is not valid JSON: it was changed outside Amber (\`amber sessions check\` names every changed entry).`,
    );
  }
  const parsed = Entry.safeParse(value);
  if (!parsed.success) throw new AmberError('internal', `Stored entry ${row.id} does not match its schema: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * A row's payload as parsed JSON, not yet checked against the schema, when it names its row (an object whose
 * id and type are the row's columns); any other payload is checked in full at once (and refused as
 * parseEntryRow refuses it). Only for a row whose hash is then found matching its stored fields: a row that
 * does not match (or is not checked) must go through parseEntryRow before anything reads it.
 */
export function unverifiedEntryOf(row: Pick<EntryRow, 'id' | 'type' | 'payload'>): { entry: Entry; checked: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(row.payload);
  } catch {
    return { entry: parseEntryRow(row), checked: true };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const named = value as { id?: unknown; type?: unknown };
    if (named.id === row.id && named.type === row.type) return { entry: value as Entry, checked: false };
  }
  return { entry: parseEntryRow(row), checked: true };
}

/** A stored compaction's first kept entry; null when its payload no longer says (it was changed). */
export function keptFrom(payload: string): string | null {
  try {
    const kept = (JSON.parse(payload) as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    return typeof kept === 'string' ? kept : null;
  } catch {
    return null;
  }
}
