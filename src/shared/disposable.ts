/** Something that holds a resource or a registration until it is disposed. Disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns disposables and releases them newest-first. An error in one does not stop the others. */
export class DisposableStore implements Disposable {
  #items: Disposable[] = [];
  #disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.#disposed) item.dispose();
    else this.#items.push(item);
    return item;
  }

  get size(): number {
    return this.#items.length;
  }

  dispose(): void {
    this.#disposed = true;
    const errors: unknown[] = [];
    while (this.#items.length) {
      try {
        this.#items.pop()!.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length) throw new AggregateError(errors, `${errors.length} disposable(s) failed`);
  }
}
