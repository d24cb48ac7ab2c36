import type { Disposable } from '../../../shared/disposable.ts';
import type { PluginCaller } from './contribution-installer.ts';

export interface IdleWatch extends Disposable {
  /** Calls through the watched caller; each keeps the plugin from being idle until it settles. */
  readonly caller: PluginCaller;
  /** Starts counting idle time now, unless a call is running (then it starts when the last one settles). */
  arm(): void;
  /** True once the idle time has passed with no call running, until the next call starts. */
  readonly idle: boolean;
}

/**
 * Watches the calls main makes into one plugin process: `onIdle` runs once `idleMs` have passed with no call
 * running and none started. Whoever acts on it later checks `idle` again: a call may have started since.
 * Disposing stops the watch (the timer never fires after it).
 */
/** The timer functions a watch uses (a seam: tests pass their own clock). */
export interface IdleTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: IdleTimers = {
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function watchIdle(caller: PluginCaller, idleMs: number, onIdle: () => void, timers: IdleTimers = realTimers): IdleWatch {
  let running = 0;
  let armed = false;
  let disposed = false;
  let expired = false;
  let timer: unknown;
  const start = () => {
    timers.clear(timer);
    if (disposed || !armed || running > 0) return;
    timer = timers.set(() => {
      if (disposed || running > 0) return;
      expired = true;
      onIdle();
    }, idleMs);
  };
  return {
    caller: {
      call: (method, args, timeoutMs) => {
        running++;
        expired = false;
        timers.clear(timer);
        const call = caller.call(method, args, timeoutMs);
        const settled = () => {
          running--;
          start();
        };
        call.then(settled, settled);
        return call;
      },
      config: () => caller.config(),
      get activity() {
        return caller.activity;
      },
    },
    arm() {
      armed = true;
      start();
    },
    get idle() {
      return expired && running === 0 && !disposed;
    },
    dispose() {
      disposed = true;
      timers.clear(timer);
    },
  };
}
