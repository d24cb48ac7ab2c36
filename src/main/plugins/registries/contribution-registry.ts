import { type Disposable, toDisposable } from '../../../shared/disposable.ts';
import { Emitter, type Event } from '../../../shared/emitter.ts';
import { AmberError } from '../../errors.ts';

export interface Registered<T> {
  readonly pluginId: string;
  readonly key: string;
  readonly value: T;
}

/**
 * Key → contribution for one kind. `register()` returns the only way to remove an entry (no public
 * unregister); the plugin runtime records it in the ledger. Listeners hear every change, so views rebuild.
 */
export class ContributionRegistry<T> {
  readonly kind: string;
  readonly #items = new Map<string, Registered<T>>();
  /** Which registration holds each key: a replaced value keeps its registration. */
  readonly #holders = new Map<string, object>();
  // A listener's failure is its own; the registry stays consistent.
  readonly #changes = new Emitter<void>();
  /** Fired after each change: a contribution registered, replaced or removed. */
  readonly onDidChange: Event<void> = this.#changes.event;
  #registrations = 0;

  constructor(kind: string) {
    this.kind = kind;
  }

  /** Throws a `conflict` AmberError when another contribution holds the key. */
  register(pluginId: string, key: string, value: T): Disposable {
    const held = this.#items.get(key);
    if (held) throw new AmberError('conflict', `The ${this.kind} '${key}' is already registered by the plugin '${held.pluginId}'.`);
    const holder = {};
    this.#items.set(key, { pluginId, key, value });
    this.#holders.set(key, holder);
    this.#registrations++;
    this.#changed();
    return toDisposable(() => {
      if (this.#holders.get(key) === holder) {
        this.#items.delete(key);
        this.#holders.delete(key);
        this.#registrations++;
        this.#changed();
      }
    });
  }

  get(key: string): Registered<T> | undefined {
    return this.#items.get(key);
  }

  entries(): Registered<T>[] {
    return [...this.#items.values()];
  }

  /** Counts registrations and removals (not replaced values): unchanged means the same contributions are in. */
  get registrations(): number {
    return this.#registrations;
  }

  get size(): number {
    return this.#items.size;
  }

  /** Replaces the value under a key the plugin holds (status and panel updates, wallet refreshes). */
  protected replace(pluginId: string, key: string, value: T): void {
    const held = this.#items.get(key);
    if (!held || held.pluginId !== pluginId) throw new AmberError('not_found', `The plugin '${pluginId}' has no ${this.kind} '${key}' to update.`);
    this.#items.set(key, { pluginId, key, value });
    this.#changed();
  }

  #changed(): void {
    this.#changes.fire();
  }
}
