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

/** A stored compaction's first kept entry; null when its payload no longer says (it was changed). */
export function keptFrom(payload: string): string | null {
  try {
    const kept = (JSON.parse(payload) as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    return typeof kept === 'string' ? kept : null;
  } catch {
    return null;
  }
}
