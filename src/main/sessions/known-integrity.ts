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
