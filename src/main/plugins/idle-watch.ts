import type { Disposable } from '../../shared/disposable.ts';
import type { PluginCaller } from './contribution-installer.ts';

export interface IdleWatch extends Disposable {
  /** Calls through the watched caller; each keeps the plugin from being idle until it settles. */
  readonly caller: PluginCaller;
  /** Starts counting idle time now, unless a call is running (then it starts when the last one settles). */
  arm(): void;
}

/**
 * Watches the calls main makes into one plugin process: `onIdle` runs once `idleMs` have passed with no call
 * running and none started. Disposing stops the watch (the timer never fires after it).
 */
export function watchIdle(caller: PluginCaller, idleMs: number, onIdle: () => void): IdleWatch {
  let running = 0;
  let armed = false;
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    clearTimeout(timer);
    if (disposed || !armed || running > 0) return;
    timer = setTimeout(() => {
      if (!disposed && running === 0) onIdle();
    }, idleMs);
    timer.unref?.();
  };
  return {
    caller: {
      call: (method, args, timeoutMs) => {
        running++;
        clearTimeout(timer);
        const call = caller.call(method, args, timeoutMs);
        const settled = () => {
          running--;
          start();
        };
        call.then(settled, settled);
        return call;
      },
    },
    arm() {
      armed = true;
      start();
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
