import { AmberError } from '../errors.ts';
import { ChainVerifier } from './chain-verifier.ts';
import type { ContextRows } from './context-builder.ts';
import { keptFrom } from './entry-row.ts';

/** Leaves whose verified paths are kept per session, so that switching between branches does not walk them again. */
const VERIFIED_LEAVES = 16;

/** What a store knows of a session's hashes: entries found changed, and leaves whose paths it verified. */
export class KnownIntegrity {
  /** Oldest first. */
  readonly leaves = new Set<string>();
  readonly changed = new Set<string>();

  constructor(leaves: Iterable<string> = []) {
    for (const leaf of leaves) this.addLeaf(leaf);
  }

  addLeaf(leaf: string): void {
    this.leaves.delete(leaf);
    this.leaves.add(leaf);
    if (this.leaves.size > VERIFIED_LEAVES) this.leaves.delete(this.leaves.values().next().value!);
  }

  /** Records what a walk from `leaf` found. */
  remember(leaf: string, changed: Iterable<string>): void {
    for (const id of changed) this.changed.add(id);
    this.addLeaf(leaf);
  }
}

/**
 * Per session, what a store has learnt of its hashes: the entries found changed outside Amber (the session
 * is then read-only here) and the leaves whose paths up to their context's cut were verified.
 */
export class IntegrityTracker {
  readonly #known = new Map<string, KnownIntegrity>();
  readonly #rows: Pick<ContextRows, 'walkUp' | 'hashOf' | 'pathMark'>;

  constructor(rows: Pick<ContextRows, 'walkUp' | 'hashOf' | 'pathMark'>) {
    this.#rows = rows;
  }

  /** The record for a session, made empty (nothing verified yet) on first use. */
  known(sessionId: string): KnownIntegrity {
    let known = this.#known.get(sessionId);
    if (!known) this.#known.set(sessionId, (known = new KnownIntegrity()));
    return known;
  }

  /** Starts a session's record afresh: `leaves` are known sound (a session just written whole). */
  reset(sessionId: string, leaves: Iterable<string> = []): void {
    this.#known.set(sessionId, new KnownIntegrity(leaves));
  }

  forget(sessionId: string): void {
    this.#known.delete(sessionId);
  }

  /** The record for a session, with the path from `leaf` to its context's cut verified. */
  verified(sessionId: string, leaf: string | null): KnownIntegrity {
    const known = this.known(sessionId);
    if (leaf === null || (known.leaves.has(leaf) && known.changed.size === 0)) return known;
    const verifier = new ChainVerifier(undefined, this.#rows.pathMark(sessionId));
    let firstKept: string | null = null;
    for (const row of this.#rows.walkUp(sessionId, leaf)) {
      verifier.push(row);
      // Above the verified path mark nothing is checked: the walk ends there, however long the path is.
      if (verifier.reachedMark) break;
      if (firstKept === null && row.type === 'compaction') firstKept = keptFrom(row.payload);
      if (firstKept !== null && row.id === firstKept) break;
    }
    known.remember(
      leaf,
      verifier.finish((parentId) => this.#rows.hashOf(sessionId, parentId)),
    );
    return known;
  }

  /** Refuses writes to a session with entries changed outside Amber; verifies its leaf's path first if need be. */
  writable(sessionId: string, leafId: string | null): KnownIntegrity {
    const known = this.verified(sessionId, leafId);
    if (known.changed.size > 0) {
      const ids = [...known.changed];
      throw new AmberError(
        'denied',
        `Conversation ${sessionId} is read-only: ${ids.length === 1 ? `entry ${ids[0]} was` : `entries ${ids.join(', ')} were`} changed outside Amber. Start a new conversation to continue, or run \`amber sessions check ${sessionId}\` for details.`,
      );
    }
    return known;
  }
}
