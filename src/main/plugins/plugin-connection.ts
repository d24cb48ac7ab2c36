import { type Endpoint, expose, wrap } from 'comlink';
import { createChannelRouter } from '../../shared/plugins/channel-router.ts';
import type { HostApi, PluginApi } from '../../shared/plugins/plugin-api.ts';
import { CHANNEL_HOST, CHANNEL_PLUGIN, CHANNEL_READY } from '../../shared/plugins/protocol.ts';
import { AmberError } from '../errors.ts';
import type { PluginExit, PluginProcess } from './plugin-launcher.ts';

export interface ConnectionOptions {
  /** Host calls accepted per second from this plugin (burst the same); beyond it they are dropped and counted. */
  inboundPerSecond?: number;
  clock?: () => number;
}

type Method = keyof PluginApi;
type Args<M extends Method> = Parameters<PluginApi[M]>;
type Result<M extends Method> = Awaited<ReturnType<PluginApi[M]>>;

interface Pending {
  deadline: number;
  timeout(): Error;
  reject(error: Error): void;
}

/**
 * Main's end of the RPC with one plugin process: PluginApi wrapped on the 'plugin' channel, HostApi exposed
 * on the 'host' channel. Plain comlink never settles a call whose peer died, so every call is tracked here:
 * when the process exits or its pipe closes, all pending calls reject at once with the same clear error,
 * and later calls reject immediately. Each call also has its own timeout.
 */
export class PluginConnection {
  readonly pluginId: string;
  readonly process: PluginProcess;
  readonly #remote: PluginApi;
  readonly #pending = new Set<Pending>();
  readonly #methods = new Map<Method, (...a: never[]) => Promise<unknown>>();
  #sweep: ReturnType<typeof setInterval> | null = null;
  #sweepEvery = Number.POSITIVE_INFINITY;
  readonly #deadListeners: ((error: Error, exit: PluginExit | null) => void)[] = [];
  #dead: Error | null = null;
  #exit: PluginExit | null = null;
  #ready: { promise: Promise<void>; resolve: () => void };
  #isReady = false;
  // Inbound flood guard: a token bucket over host-channel messages.
  readonly #rate: number;
  readonly #clock: () => number;
  #tokens: number;
  #lastRefill: number;
  #dropped = 0;

  constructor(pluginId: string, process: PluginProcess, hostApi: HostApi, options: ConnectionOptions = {}) {
    this.pluginId = pluginId;
    this.process = process;
    this.#clock = options.clock ?? Date.now;
    this.#rate = options.inboundPerSecond ?? 10_000;
    this.#tokens = this.#rate;
    this.#lastRefill = this.#clock();
    let resolveReady!: () => void;
    this.#ready = { promise: new Promise<void>((r) => (resolveReady = r)), resolve: resolveReady };

    const router = createChannelRouter((envelope) => {
      if (!process.send(envelope)) this.#die(new AmberError('unavailable', `The plugin '${pluginId}' is not running.`), null);
    });
    process.onMessage((message) => {
      const ch = typeof message === 'object' && message !== null ? (message as { ch?: unknown }).ch : undefined;
      if (ch === CHANNEL_HOST && !this.#admit()) return;
      if (ch === CHANNEL_READY) {
        this.#isReady = true;
        this.#ready.resolve();
        return;
      }
      router.dispatch(message);
    });
    process.onExit((exit) => {
      this.#exit = exit;
      const how = exit.signal ? `was killed (${exit.signal})` : `exited with code ${exit.code}`;
      this.#die(new AmberError('unavailable', `The plugin '${pluginId}' stopped: its process ${how}.`), exit);
    });
    this.#remote = wrap<PluginApi>(router.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint) as unknown as PluginApi;
    expose(hostApi, router.endpoint(CHANNEL_HOST) as unknown as Endpoint);
  }

  get alive(): boolean {
    return this.#dead === null;
  }

  /** Why calls fail, once the peer is gone. */
  get deadReason(): Error | null {
    return this.#dead;
  }

  get exit(): PluginExit | null {
    return this.#exit;
  }

  /** Host calls dropped because the plugin sent them faster than `inboundPerSecond`. */
  get dropped(): number {
    return this.#dropped;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Resolves when the host listens; rejects on timeout or death. */
  ready(timeoutMs: number): Promise<void> {
    if (this.#isReady) return Promise.resolve();
    return this.#track(this.#ready.promise, timeoutMs, null);
  }

  /** Calls a PluginApi method. `timeoutMs` 0 means no timeout (streams watch their own idleness). */
  call<M extends Method>(method: M, args: Args<M>, timeoutMs: number): Promise<Result<M>> {
    if (this.#dead) return Promise.reject(this.#dead);
    // comlink builds a new Proxy (and a finalizer entry) on every property read: keep one per method.
    let fn = this.#methods.get(method) as ((...a: Args<M>) => Promise<Result<M>>) | undefined;
    if (!fn) {
      fn = this.#remote[method] as (...a: Args<M>) => Promise<Result<M>>;
      this.#methods.set(method, fn as (...a: never[]) => Promise<unknown>);
    }
    return this.#track(fn(...args), timeoutMs, method);
  }

  /** Called once with the reason when the peer is gone (exit, closed pipe, or `close`). */
  onDead(listener: (error: Error, exit: PluginExit | null) => void): void {
    if (this.#dead) listener(this.#dead, this.#exit);
    else this.#deadListeners.push(listener);
  }

  /** Marks the connection closed by main (a deliberate stop): pending calls reject with `reason`. */
  close(reason: Error): void {
    this.#die(reason, null);
  }

  /** `what` names the call in the timeout message; null is the wait for the host to start. */
  #track<T>(promise: Promise<T>, timeoutMs: number, what: string | null): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        deadline: timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY,
        timeout: () => new AmberError('timeout', `The plugin '${this.pluginId}' did not ${what ? `answer ${what}` : 'start'} within ${formatMs(timeoutMs)}.`),
        reject: (error) => {
          this.#pending.delete(pending);
          reject(error);
        },
      };
      this.#pending.add(pending);
      if (timeoutMs > 0) this.#watch(timeoutMs);
      promise.then(
        (value) => {
          if (this.#pending.delete(pending)) resolve(value);
        },
        (error: unknown) => {
          if (this.#pending.has(pending)) pending.reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /**
   * Timeouts are checked by one sweep per connection instead of a timer per call (calls are frequent and
   * short; a timer each costs more than the rest of main's side of a call). A call fails between its
   * timeout and a tenth of it later. The sweep stops when nothing is pending.
   */
  #watch(timeoutMs: number): void {
    const every = Math.min(250, Math.max(5, Math.floor(timeoutMs / 10)));
    if (this.#sweep && this.#sweepEvery <= every) return;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweepEvery = every;
    this.#sweep = setInterval(() => {
      const now = Date.now();
      for (const p of this.#pending) if (p.deadline <= now) p.reject(p.timeout());
      if (this.#pending.size === 0 && this.#sweep) {
        clearInterval(this.#sweep);
        this.#sweep = null;
      }
    }, every);
  }

  #admit(): boolean {
    if (this.process.congested) {
      this.#dropped++;
      return false;
    }
    const now = this.#clock();
    const elapsed = now - this.#lastRefill;
    if (elapsed > 0) {
      this.#tokens = Math.min(this.#rate, this.#tokens + (elapsed * this.#rate) / 1000);
      this.#lastRefill = now;
    }
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return true;
    }
    this.#dropped++;
    return false;
  }

  #die(error: Error, exit: PluginExit | null): void {
    if (this.#dead) {
      if (exit) this.#exit = exit;
      return;
    }
    this.#dead = error;
    if (exit) this.#exit = exit;
    for (const p of this.#pending) p.reject(error);
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweep = null;
    for (const l of this.#deadListeners.splice(0)) l(error, exit);
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
