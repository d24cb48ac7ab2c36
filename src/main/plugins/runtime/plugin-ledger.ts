import type { Disposable } from '../../../shared/disposable.ts';

interface LedgerEntry {
  label: string;
  disposable: Disposable;
}

/**
 * Every accepted install, by plugin id, in the order it happened. Disable, failure, crash and shutdown
 * unwind a plugin's entries newest-first, so no contribution survives its plugin's deactivation.
 */
export class PluginLedger {
  readonly #entries = new Map<string, LedgerEntry[]>();

  record(pluginId: string, label: string, disposable: Disposable): void {
    const list = this.#entries.get(pluginId) ?? [];
    list.push({ label, disposable });
    this.#entries.set(pluginId, list);
  }

  /** What the plugin holds, oldest first (labels like `tool:echo`). */
  labels(pluginId: string): string[] {
    return (this.#entries.get(pluginId) ?? []).map((e) => e.label);
  }

  size(pluginId: string): number {
    return this.#entries.get(pluginId)?.length ?? 0;
  }

  /**
   * Disposes one entry and forgets it (the newest with that label): a contribution the plugin gives up
   * while it stays active, like a manifest's declaration that its running process replaces. False when none.
   */
  release(pluginId: string, label: string): boolean {
    const list = this.#entries.get(pluginId) ?? [];
    const at = list.findLastIndex((e) => e.label === label);
    if (at < 0) return false;
    const [entry] = list.splice(at, 1);
    entry!.disposable.dispose();
    return true;
  }

  /** Disposes newest-first. One failing disposable does not stop the others; their errors are returned. */
  unwind(pluginId: string): unknown[] {
    const list = this.#entries.get(pluginId) ?? [];
    this.#entries.delete(pluginId);
    const errors: unknown[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      try {
        list[i]!.disposable.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    return errors;
  }
}
