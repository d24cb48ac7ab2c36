import { AmberError, errorMessage } from '../../errors.ts';
import type { PluginCaller } from './contribution-installer.ts';
import type { PluginSupervisor, SupervisorContext } from './plugin-supervisor.ts';

/** Events kept for a lazy plugin while it starts; more are dropped and counted. */
const MAX_PENDING_EVENTS = 64;

/**
 * Starting on first use: a lazy plugin that is on is `idle` (its manifest's declarations installed, no
 * process) until one of them is called, an event arrives on one of its `onEvent:` topics, or its panel is
 * shown. Every use that arrives while it starts shares the one start.
 */
export class LazyStart {
  readonly #supervisor: PluginSupervisor;
  readonly #context: Pick<SupervisorContext, 'config' | 'disposed' | 'log'>;

  constructor(supervisor: PluginSupervisor, context: Pick<SupervisorContext, 'config' | 'disposed' | 'log'>) {
    this.#supervisor = supervisor;
    this.#context = context;
  }

  /** Calls into a plugin that may not be running yet: the first one starts it (see `started`). */
  caller(): PluginCaller {
    const rec = this.#supervisor.rec;
    return {
      call: (method, args, timeoutMs) => {
        // Cancelling never starts a plugin: a call that is not running has nothing to cancel. While it starts,
        // the cancel follows the call it would end, which is sent first once the plugin runs.
        if (method === '$cancel' && !(rec.state === 'active' && rec.caller) && !rec.starting) return Promise.resolve(undefined as never);
        return this.started().then((caller) => caller.call(method, args, timeoutMs));
      },
      // The config is main's to read: a plugin that is not running yet need not start for it.
      config: async () => structuredClone(this.#context.config(rec.descriptor.manifest.id)),
      // None while it does not run: the first check starts it.
      get activity() {
        return rec.state === 'active' ? rec.conn?.activity : undefined;
      },
    };
  }

  /**
   * The running plugin's caller, starting a lazy plugin that is `idle` first. Uses that arrive while it starts
   * share the one start. Throws (`unavailable`) with a sentence naming the plugin and why when it cannot run.
   */
  async started(): Promise<PluginCaller> {
    const supervisor = this.#supervisor;
    const rec = supervisor.rec;
    if (rec.state === 'active' && rec.caller) return rec.caller;
    rec.starting ??= supervisor
      .serial(async () => {
        if (rec.enabled && !this.#context.disposed() && rec.state === 'idle') await supervisor.activate();
      })
      .finally(() => (rec.starting = null));
    await rec.starting;
    if (rec.state === 'active' && rec.caller) return rec.caller;
    const name = rec.descriptor.manifest.name;
    if (rec.state === 'failed' || rec.state === 'incompatible')
      throw new AmberError('unavailable', `The plugin ${name} could not be started: ${rec.reason ?? 'no reason was given.'}`);
    throw new AmberError('unavailable', `The plugin ${name} is switched off.`);
  }

  /** An event on an `onEvent:` topic: starts an idle plugin and delivers it once it runs (a running one hears it itself). */
  onActivationEvent(topic: string, payload: unknown): void {
    const rec = this.#supervisor.rec;
    if (rec.state !== 'idle') return;
    if (rec.pendingEvents.length >= MAX_PENDING_EVENTS) {
      rec.dropped.events++;
      return;
    }
    rec.pendingEvents.push({ topic, payload });
    this.started().then(
      () => {
        const conn = rec.conn;
        for (const event of rec.pendingEvents.splice(0)) if (conn) this.#supervisor.deliver(conn, event.topic, event.payload);
      },
      (e: unknown) => {
        rec.pendingEvents = [];
        this.#context.log(rec, 'warn', `It did not start for the event '${topic}': ${errorMessage(e)}`);
      },
    );
  }
}
