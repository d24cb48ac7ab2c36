import { type Disposable, toDisposable } from '../../shared/disposable.ts';
import type { HostApi } from '../../shared/plugin-wire/index.ts';

type Listener = (payload: unknown) => void;

/**
 * The plugin's event listeners by topic, and what main is told of them: main holds one filter per topic
 * (the union of the event types the topic's listeners want, or all when one listener names none) and is
 * told only when that filter changes, so it sends this process only events someone here listens to.
 */
export class EventSubscriptions {
  readonly #host: Pick<HostApi, '$subscribe' | '$unsubscribe'>;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #filters = new Map<Listener, Set<string> | null>();
  /** The filter main holds for each topic ('*' for none), so main is told only of changes. */
  readonly #subscribed = new Map<string, string>();

  constructor(host: Pick<HostApi, '$subscribe' | '$unsubscribe'>) {
    this.#host = host;
  }

  /** Adds a listener for `topic`, of only the payloads whose `type` is in `options.types` when given. */
  on(topic: string, listener: Listener, options?: { types?: readonly string[] }): Disposable {
    const types = Array.isArray(options?.types) ? new Set(options.types.filter((t): t is string => typeof t === 'string')) : null;
    const wanted: Listener =
      types === null
        ? listener
        : (payload) => typeof payload === 'object' && payload !== null && types.has(String((payload as { type?: unknown }).type)) && listener(payload);
    let set = this.#listeners.get(topic);
    if (!set) {
      set = new Set();
      this.#listeners.set(topic, set);
    }
    set.add(wanted);
    this.#filters.set(wanted, types);
    this.#resubscribe(topic);
    return toDisposable(() => {
      const s = this.#listeners.get(topic);
      if (!s) return;
      s.delete(wanted);
      this.#filters.delete(wanted);
      if (s.size === 0) {
        this.#listeners.delete(topic);
        this.#subscribed.delete(topic);
        void this.#host.$unsubscribe(topic).catch(() => {});
      } else this.#resubscribe(topic);
    });
  }

  /** Calls each listener of `topic` with `payload`; a listener that throws is reported to `onError` and the rest still run. */
  deliver(topic: string, payload: unknown, onError: (e: unknown) => void): void {
    for (const l of this.#listeners.get(topic) ?? []) {
      try {
        l(payload);
      } catch (e) {
        onError(e);
      }
    }
  }

  /** Forgets every listener (main is not told: the process is going away). */
  clear(): void {
    this.#listeners.clear();
  }

  // Main sends the union of what the topic's listeners want; one listener without types wants all.
  #resubscribe(topic: string): void {
    const wanted = new Set<string>();
    let all = false;
    for (const l of this.#listeners.get(topic) ?? []) {
      const types = this.#filters.get(l);
      if (!types) all = true;
      else for (const t of types) wanted.add(t);
    }
    const filter = all ? null : { types: [...wanted].sort() };
    const key = filter ? filter.types.join('\u0000') : '*';
    if (this.#subscribed.get(topic) === key) return;
    this.#subscribed.set(topic, key);
    void (filter ? this.#host.$subscribe(topic, filter) : this.#host.$subscribe(topic)).catch(() => {});
  }
}
