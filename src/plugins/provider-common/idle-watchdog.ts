/**
 * Calls `onIdle` once when no activity was seen for `ms`, not counting time while `holding` is set (the
 * consumer has an event in hand and is not reading). `stop()` must be called when the stream ends.
 */
export class IdleWatchdog {
  holding = false;
  private last = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly ms: number;
  private readonly onIdle: () => void;

  constructor(ms: number, onIdle: () => void) {
    this.ms = ms;
    this.onIdle = onIdle;
    this.timer = setTimeout(this.check, ms);
    this.timer.unref?.();
  }

  touch(): void {
    this.last = Date.now();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    if (this.timer === undefined) return;
    const quiet = Date.now() - this.last;
    if (!this.holding && quiet >= this.ms) this.onIdle();
    else {
      this.timer = setTimeout(this.check, this.holding ? this.ms : this.ms - quiet);
      this.timer.unref?.();
    }
  };
}
