import { z } from 'zod';

/** What a memory is about: the user (preferences, who they are), the project (facts of one codebase), or how to do something. */
export const MemoryKind = z.enum(['user', 'project', 'procedure']);
export type MemoryKind = z.infer<typeof MemoryKind>;

/**
 * active: recalled. suggested: waits in the tray for the user's accept or dismiss. superseded: a newer memory
 * on the same subject replaced it (kept as history). deleted: the user deleted it (restorable). dismissed:
 * the user turned the suggestion down (a repeat of it is not suggested again).
 */
export const MemoryStatus = z.enum(['active', 'suggested', 'superseded', 'deleted', 'dismissed']);
export type MemoryStatus = z.infer<typeof MemoryStatus>;

/** The longest memory: a sentence or a short paragraph, never a document. */
export const MAX_MEMORY_CHARS = 1000;

/** The global scope; any other scope is one workspace folder's absolute path. */
export const GLOBAL_SCOPE = '';

export interface MemoryRecord {
  id: number;
  text: string;
  kind: MemoryKind;
  /** GLOBAL_SCOPE, or the workspace folder it belongs to. */
  scope: string;
  pinned: boolean;
  status: MemoryStatus;
  /** How many times it was written (each repeat or near duplicate adds one). */
  evidence: number;
  /** Epoch ms. */
  firstSeen: number;
  lastSeen: number;
  lastRecalled: number | null;
  sourceSession: string | null;
  sourceEntry: string | null;
  /** The memory this one replaced (or replaces once accepted). */
  supersedes: number | null;
  hash: string;
}

export function scopeLabel(scope: string): string {
  return scope === GLOBAL_SCOPE ? 'global' : scope;
}
