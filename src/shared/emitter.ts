import { toDisposable, type Disposable } from './disposable.ts';

/** Subscribes a listener; the returned Disposable unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/**
 * A typed event source: the owner keeps the Emitter and fires, others get only `event` and listen. A
 * listener that throws does not stop the others nor reach the firer (it goes to `onListenerError`);
 * listeners added or removed while firing take effect from the next fire.
 */
export class Emitter<T> implements Disposable {
  #listeners: ((value: T) => void)[] = [];
  #disposed = false;
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  readonly event: Event<T> = (listener) => {
    if (this.#disposed) return toDisposable(() => {});
    this.#listeners = [...this.#listeners, listener];
    return toDisposable(() => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    });
  };

  get listenerCount(): number {
    return this.#listeners.length;
  }

  fire(value: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(value);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.#disposed = true;
    this.#listeners = [];
  }
}
