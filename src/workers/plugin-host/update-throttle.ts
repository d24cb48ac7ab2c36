/**
 * Host calls per second this side sends for log lines, events and status/panel updates: half of what main
 * accepts before it drops (PluginConnection's `inboundPerSecond`), so a plugin using the SDK is throttled
 * here, with a count, and never loses an answer to main's flood guard.
 */
export const NOTIFICATIONS_PER_SECOND = 5000;
/**
 * A status segment, panel or wallet is sent to main at most this often (the first change at once, then
 * the latest one at the end of the interval): a plugin that updates its segment at every agent event would
 * otherwise send main one update per event, which nobody can read that fast.
 */
export const UPDATE_INTERVAL_MS = 100;

/**
 * The plugin side's budget of notifications to main (a token bucket refilled at NOTIFICATIONS_PER_SECOND)
 * and the throttle of status, panel and wallet updates, which keeps only the latest update per key while
 * it waits. `now` is the clock (a seam for tests).
 */
export class UpdateThrottle {
  #tokens = NOTIFICATIONS_PER_SECOND;
  readonly #now: () => number;
  #refilledAt: number;
  /** Updates that found their interval running or the budget empty: the latest per key is sent later. */
  readonly #deferred = new Map<string, () => void>();
  #deferTimer: ReturnType<typeof setTimeout> | null = null;
  /** When each key was last sent (UPDATE_INTERVAL_MS apart at least). */
  readonly #sentAt = new Map<string, number>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#refilledAt = now();
  }

  /** Takes one token from the notification budget; false when it is empty. */
  spend(): boolean {
    const now = this.#now();
    if (now > this.#refilledAt) {
      this.#tokens = Math.min(NOTIFICATIONS_PER_SECOND, this.#tokens + ((now - this.#refilledAt) * NOTIFICATIONS_PER_SECOND) / 1000);
      this.#refilledAt = now;
    }
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /**
   * Sends an update now, or keeps only the latest one per key until its interval is over (then everything
   * kept goes together, in the order it first waited) and the budget has room.
   */
  update(key: string, send: () => void): void {
    const now = this.#now();
    const wait = (this.#sentAt.get(key) ?? Number.NEGATIVE_INFINITY) + UPDATE_INTERVAL_MS - now;
    if (this.#deferred.size === 0 && wait <= 0 && this.spend()) {
      this.#sentAt.set(key, now);
      return send();
    }
    this.#deferred.set(key, send);
    if (!this.#deferTimer) this.#deferTimer = setTimeout(() => this.#sendDeferred(), Math.max(wait, 50));
  }

  /** Drops every update still waiting. */
  dispose(): void {
    if (this.#deferTimer) clearTimeout(this.#deferTimer);
    this.#deferTimer = null;
    this.#deferred.clear();
  }

  #sendDeferred(): void {
    this.#deferTimer = null;
    // Deleting the entry being visited is safe in a Map walk.
    for (const [key, send] of this.#deferred) {
      if (!this.spend()) break;
      this.#deferred.delete(key);
      this.#sentAt.set(key, this.#now());
      send();
    }
    if (this.#deferred.size > 0) this.#deferTimer = setTimeout(() => this.#sendDeferred(), 50);
  }
}
