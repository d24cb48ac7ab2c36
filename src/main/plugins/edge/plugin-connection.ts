import { type Endpoint, expose, wrap } from 'comlink';
import { applyMessage, errorReply, readCall, readEnvelope, readNotes, readReply, replyId } from '../../../shared/plugins/index.ts';
import { type ChannelEndpoint, createChannelRouter } from '../../../shared/plugins/index.ts';
import { HostApiArgs } from '../../../shared/plugins/index.ts';
import type { HostApi, LogLevel, PluginApi } from '../../../shared/plugins/index.ts';
import {
  CHANNEL_HOST,
  CHANNEL_NOTE,
  CHANNEL_PLUGIN,
  CHANNEL_READY,
  DEFAULT_MAX_MESSAGE_BYTES,
  HOST_API_METHODS,
  HOST_NOTE_METHODS,
  type HostApiMethod,
  MAX_NOTES_PER_MESSAGE,
  PLUGIN_NOTE_METHODS,
} from '../../../shared/plugins/index.ts';
import { Emitter } from '../../../shared/emitter.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import { describeExit, formatBytes, type PipeFrame, type PluginExit, type PluginProcess } from '../launchers/plugin-launcher.ts';

export interface ConnectionOptions {
  /** Host calls accepted per second from this plugin (burst the same); beyond it they are dropped and counted. */
  inboundPerSecond?: number;
  /** The largest message accepted from the plugin, serialized (default 1 MB); a larger one is refused. */
  maxMessageBytes?: number;
  /**
   * How long a note (`notify`) may wait to be sent with others (default NOTIFY_DELAY_MS). It is sent sooner
   * when main makes any other call to the plugin, so it never arrives after a call made after it.
   */
  notifyDelayMs?: number;
  /** Where refusals are logged for this plugin; by default the plugin's own log, through `hostApi.$log`. */
  log?: (level: LogLevel, message: string) => void;
  clock?: () => number;
}

/** What main did not accept from a plugin, by kind. */
export interface ConnectionDrops {
  /** Host calls beyond `inboundPerSecond`, or sent while the plugin left its end of the pipe unread. */
  rate: number;
  /** Messages over `maxMessageBytes`. */
  refused: number;
  /** Not JSON, not an envelope, not a call of a known method with plain data, or not a reply to a pending call. */
  malformed: number;
  /** Calls of a known method whose arguments failed that method's schema (answered with the reason). */
  invalid: number;
  /** Messages whose handling threw in main (the plugin's fault, never main's end). */
  failed: number;
}

type Method = keyof PluginApi;
type Args<M extends Method> = Parameters<PluginApi[M]>;
type Result<M extends Method> = Awaited<ReturnType<PluginApi[M]>>;

interface Pending {
  deadline: number;
  /** The comlink id of the call, to settle comlink's own record of it when main gives up on the call. */
  id: string | null;
  timeout(): Error;
  reject(error: Error): void;
}

const HOST_METHODS: ReadonlySet<string> = new Set(HOST_API_METHODS);
const HOST_NOTES: ReadonlySet<string> = new Set(HOST_NOTE_METHODS);

/** The PluginApi methods main sends one way (see PLUGIN_NOTE_METHODS). */
export type NoteMethod = (typeof PLUGIN_NOTE_METHODS)[number];

/** What a notification (an event) for a plugin that leaves main's messages unread on its pipe is rejected with. */
export class CongestedError extends AmberError {
  constructor(pluginId: string) {
    super('unavailable', `The plugin '${pluginId}' leaves main's messages unread on its pipe, so an event for it was dropped.`);
  }
}

/** Numbers `activity` marks across every connection of this process, so a mark is never reused by a new process. */
let activityMarks = 0;

/** See ConnectionOptions.notifyDelayMs: events for a plugin wait this long at most, to go to it together. */
export const NOTIFY_DELAY_MS = 20;

/** About the most bytes of events one note message carries (one event larger than this goes alone). */
export const NOTE_MESSAGE_BYTES = 256 * 1024;

/** A note's size as it will cross the pipe, near enough to bound a message (a value JSON cannot write counts as small). */
function approximateBytes(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

interface Note {
  method: NoteMethod;
  args: unknown[];
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Main's end of the RPC with one plugin process: PluginApi wrapped on the 'plugin' channel, HostApi exposed
 * on the 'host' channel, and one-way notes both ways on the 'note' channel (events to the plugin, provider
 * events from it), which nothing answers. Plain comlink never settles a call whose peer died, so every call is tracked here:
 * when the process exits or its pipe closes, all pending calls reject at once with the same clear error,
 * and later calls reject immediately. Each call also has its own timeout.
 *
 * The plugin process is not trusted. Nothing it sends reaches comlink as it was sent: a message larger than
 * `maxMessageBytes` is refused unread; a host call must be an APPLY of one HostApi method whose arguments
 * are plain data that pass the method's schema, and is rebuilt from what the schema returned (a note the
 * same, for the methods sent as notes); a reply must
 * answer a call main made and still waits for. Everything else is dropped and counted (`drops`), and
 * nothing a message does can throw into main.
 */
export class PluginConnection {
  readonly pluginId: string;
  readonly process: PluginProcess;
  readonly #remote: PluginApi;
  readonly #pending = new Set<Pending>();
  readonly #methods = new Map<Method, (...a: never[]) => Promise<unknown>>();
  #sweep: ReturnType<typeof setInterval> | null = null;
  #sweepEvery = Number.POSITIVE_INFINITY;
  readonly #died = new Emitter<{ error: Error; exit: PluginExit | null }>((e) => console.error('A plugin connection listener failed', e));
  #dead: Error | null = null;
  #exit: PluginExit | null = null;
  #ready: { promise: Promise<void>; resolve: () => void };
  #isReady = false;
  // Inbound flood guard: a token bucket over host-channel messages.
  readonly #rate: number;
  readonly #clock: () => number;
  #tokens: number;
  #lastRefill: number;
  readonly #drops: ConnectionDrops = { rate: 0, refused: 0, malformed: 0, invalid: 0, failed: 0 };
  readonly #maxBytes: number;
  readonly #log: (level: LogLevel, message: string) => void;
  /** When each kind of drop was last logged, and how many went unlogged since (one line a second per kind). */
  readonly #logged = new Map<keyof ConnectionDrops, { at: number; quiet: number }>();
  readonly #router: ReturnType<typeof createChannelRouter>;
  /** Calls main made on the plugin channel and still waits for: comlink id → method. */
  readonly #outgoing = new Map<string, string>();
  #lastId: string | null = null;
  #activity = ++activityMarks;
  readonly #hostApi: HostApi;
  readonly #notes: Note[] = [];
  #noteTimer: ReturnType<typeof setTimeout> | null = null;
  readonly #notifyDelayMs: number;

  constructor(pluginId: string, process: PluginProcess, hostApi: HostApi, options: ConnectionOptions = {}) {
    this.pluginId = pluginId;
    this.process = process;
    this.#hostApi = hostApi;
    this.#notifyDelayMs = options.notifyDelayMs ?? NOTIFY_DELAY_MS;
    this.#clock = options.clock ?? Date.now;
    this.#rate = options.inboundPerSecond ?? 10_000;
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#log = options.log ?? ((level, message) => void hostApi.$log(level, message).catch(() => {}));
    this.#tokens = this.#rate;
    this.#lastRefill = this.#clock();
    let resolveReady!: () => void;
    this.#ready = { promise: new Promise<void>((r) => (resolveReady = r)), resolve: resolveReady };

    const router = createChannelRouter((envelope) => this.#send(envelope));
    this.#router = router;
    const pluginEndpoint = router.endpoint(CHANNEL_PLUGIN);
    // Main's own calls are recorded as they leave, so that only answers to them are let back in.
    const tracked: ChannelEndpoint = {
      addEventListener: (type, l) => pluginEndpoint.addEventListener(type, l),
      removeEventListener: (type, l) => pluginEndpoint.removeEventListener(type, l),
      postMessage: (m) => {
        const call = m as { id?: unknown; type?: unknown; path?: unknown[] };
        if (call.type === 'APPLY' && typeof call.id === 'string') {
          this.#outgoing.set(call.id, String(call.path?.[0]));
          this.#lastId = call.id;
        }
        this.#send({ ch: CHANNEL_PLUGIN, m });
      },
    };
    const hostEndpoint = router.endpoint(CHANNEL_HOST);
    process.onMessage((frame) => this.#receive(frame));
    process.onExit((exit) => {
      this.#exit = exit;
      this.#die(new AmberError('unavailable', `The plugin '${pluginId}' stopped: its process ${describeExit(exit)}.`), exit);
    });
    this.#remote = wrap<PluginApi>(tracked as unknown as Endpoint) as unknown as PluginApi;
    expose(hostApi, hostEndpoint as unknown as Endpoint);
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

  /** Messages from the plugin that main did not accept, of every kind (see `drops`). */
  get dropped(): number {
    const d = this.#drops;
    return d.rate + d.refused + d.malformed + d.invalid + d.failed;
  }

  get drops(): Readonly<ConnectionDrops> {
    return { ...this.#drops };
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * A mark that changes whenever main calls the plugin for anything but an allowance check (events and other
   * notes aside): what the plugin answered before may not hold after such a call (a command, a panel action,
   * a tick may change its state).
   */
  get activity(): number {
    return this.#activity;
  }

  /** Resolves when the host listens; rejects on timeout or death. */
  ready(timeoutMs: number): Promise<void> {
    if (this.#isReady) return Promise.resolve();
    return this.#track(this.#ready.promise, timeoutMs, null, null);
  }

  /** Calls a PluginApi method. `timeoutMs` 0 means no timeout (streams watch their own idleness). */
  call<M extends Method>(method: M, args: Args<M>, timeoutMs: number): Promise<Result<M>> {
    if (this.#dead) return Promise.reject(this.#dead);
    if (method !== '$checkAllowance') this.#activity = ++activityMarks;
    // Calls keep their order: what waits to be sent goes first.
    if (this.#notes.length > 0) this.#sendNotes();
    // comlink builds a new Proxy (and a finalizer entry) on every property read: keep one per method.
    let fn = this.#methods.get(method) as ((...a: Args<M>) => Promise<Result<M>>) | undefined;
    if (!fn) {
      fn = this.#remote[method] as (...a: Args<M>) => Promise<Result<M>>;
      this.#methods.set(method, fn as (...a: never[]) => Promise<unknown>);
    }
    this.#lastId = null;
    const result = fn(...args);
    return this.#track(result, timeoutMs, method, this.#lastId);
  }

  /**
   * A one-way call (an event for the plugin): a note, which the plugin does not answer. It is sent with the
   * others of the next `notifyDelayMs` (MAX_NOTES_PER_MESSAGE to a message), or before the next `call`,
   * whichever comes first, so a plugin that listens to a run's many events is woken a few times instead of
   * at each one and never wakes main to answer. Resolves once it is on the pipe; rejects with a
   * CongestedError when the plugin leaves its pipe unread then, or with the reason when the peer is gone.
   */
  notify<M extends NoteMethod>(method: M, args: Args<M>): Promise<void> {
    if (this.#dead) return Promise.reject(this.#dead);
    return new Promise<void>((resolve, reject) => {
      this.#notes.push({ method, args, resolve, reject });
      if (this.#noteTimer) return;
      this.#noteTimer = setTimeout(() => this.#sendNotes(), this.#notifyDelayMs);
      this.#noteTimer.unref?.();
    });
  }

  #sendNotes(): void {
    if (this.#noteTimer) clearTimeout(this.#noteTimer);
    this.#noteTimer = null;
    const notes = this.#notes.splice(0);
    let i = 0;
    while (i < notes.length) {
      // A message carries at most MAX_NOTES_PER_MESSAGE notes and about NOTE_MESSAGE_BYTES (always one), so a
      // batch of large events cannot put megabytes on a pipe the plugin has stopped reading.
      const part: Note[] = [];
      let bytes = 0;
      while (i < notes.length && part.length < MAX_NOTES_PER_MESSAGE && (part.length === 0 || bytes < NOTE_MESSAGE_BYTES)) {
        const note = notes[i++]!;
        bytes += approximateBytes(note.args);
        part.push(note);
      }
      // A plugin that leaves its pipe unread gets no more events queued in main (about 1 MB waits at most,
      // and one message more).
      if (this.process.congested) {
        for (const note of part) note.reject(new CongestedError(this.pluginId));
        continue;
      }
      this.#send({ ch: CHANNEL_NOTE, m: part.map((note) => [note.method, note.args]) });
      if (this.#dead) for (const note of part) note.reject(this.#dead);
      else for (const note of part) note.resolve();
    }
  }

  /** The plugin's config as its `$getConfig` answers it now: sent along with calls that would otherwise ask for it. */
  config(): Promise<Record<string, unknown>> {
    return this.#hostApi.$getConfig();
  }

  /** Called once with the reason when the peer is gone (exit, closed pipe, or `close`). */
  onDead(listener: (error: Error, exit: PluginExit | null) => void): void {
    if (this.#dead) listener(this.#dead, this.#exit);
    else this.#died.event(({ error, exit }) => listener(error, exit));
  }

  /** Marks the connection closed by main (a deliberate stop): pending calls reject with `reason`. */
  close(reason: Error): void {
    this.#die(reason, null);
  }

  /** `what` names the call in the timeout message; null is the wait for the host to start. */
  #track<T>(promise: Promise<T>, timeoutMs: number, what: string | null, id: string | null): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        deadline: timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY,
        id,
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
      for (const p of this.#pending) {
        if (p.deadline > now) continue;
        const error = p.timeout();
        p.reject(error);
        // comlink keeps a listener per call until it is answered: answer it here, so a late reply is refused.
        if (p.id !== null && this.#outgoing.delete(p.id)) this.#router.dispatch({ ch: CHANNEL_PLUGIN, m: errorReply(p.id, error.message) });
      }
      if (this.#pending.size === 0 && this.#sweep) {
        clearInterval(this.#sweep);
        this.#sweep = null;
      }
    }, every);
  }

  #send(envelope: { ch: string; m: unknown }): void {
    // An answer to a plugin that leaves its pipe unread is not queued: main's write queue stays bounded even
    // when many calls were admitted before the queue filled.
    if (envelope.ch === CHANNEL_HOST && this.process.congested) {
      this.#drop('rate', "a host call while it left main's answers unread on its pipe");
      return;
    }
    if (!this.process.send(envelope)) this.#die(new AmberError('unavailable', `The plugin '${this.pluginId}' is not running.`), null);
  }

  /** Every frame from the plugin comes here first. Must not throw: a plugin can fail itself, never main. */
  #receive(frame: PipeFrame): void {
    if (this.#dead) return;
    try {
      if (frame.bytes > this.#maxBytes) return this.#refuseOversize(frame);
      let message: unknown;
      try {
        message = frame.read();
      } catch {
        return this.#drop('malformed', 'a message that is not JSON or not plain data');
      }
      const envelope = readEnvelope(message);
      if (!envelope) return this.#drop('malformed', 'a message outside the plugin protocol');
      switch (envelope.ch) {
        case CHANNEL_HOST:
          return this.#receiveCall(envelope.m);
        case CHANNEL_PLUGIN:
          return this.#receiveReply(envelope.m);
        case CHANNEL_NOTE:
          return this.#receiveNotes(envelope.m);
        case CHANNEL_READY:
          this.#isReady = true;
          this.#ready.resolve();
          return;
        default:
          return this.#drop('malformed', 'a message on an unknown channel');
      }
    } catch (e) {
      this.#drop('failed', `a message whose handling failed (${errorMessage(e)})`);
    }
  }

  #receiveCall(m: unknown): void {
    if (!this.#admit()) return;
    const gated = readCall(m, HOST_METHODS, this.#maxBytes);
    if (!gated.ok) return this.#drop('malformed', `a host call main does not accept (${gated.reason})`);
    const { id, method, args } = gated.value;
    const parsed = HostApiArgs[method as HostApiMethod].safeParse(args);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
      const sentence = `The plugin '${this.pluginId}' called ${method} with arguments main does not accept${where}: ${first?.message ?? 'invalid'}.`;
      this.#drop('invalid', sentence);
      this.#send({ ch: CHANNEL_HOST, m: errorReply(id, sentence) });
      return;
    }
    this.#router.dispatch({ ch: CHANNEL_HOST, m: applyMessage(id, method, parsed.data) });
  }

  /** Notes from the plugin: gated and checked like host calls, each run on its own; nothing is answered. */
  #receiveNotes(m: unknown): void {
    if (!this.#admit()) return;
    const gated = readNotes(m, HOST_NOTES, MAX_NOTES_PER_MESSAGE, this.#maxBytes);
    if (!gated.ok) return this.#drop('malformed', `notes main does not accept (${gated.reason})`);
    for (const { method, args } of gated.value) {
      // A view the plugin pushes (status, panel, wallet) was a call whose refusal the plugin logged as an error:
      // sent one way now, its refusal is logged to the plugin's log here, as it was.
      const pushed = method !== '$providerEvent';
      const parsed = HostApiArgs[method as HostApiMethod].safeParse(args);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
        this.#drop(
          'invalid',
          `The plugin '${this.pluginId}' sent a note of ${method} with arguments main does not accept${where}: ${first?.message ?? 'invalid'}.`,
        );
        if (pushed)
          this.#log('error', `The plugin '${this.pluginId}' called ${method} with arguments main does not accept${where}: ${first?.message ?? 'invalid'}.`);
        continue;
      }
      const run = this.#hostApi[method as HostApiMethod] as (...a: unknown[]) => Promise<unknown>;
      run.apply(this.#hostApi, parsed.data as unknown[]).catch((e: unknown) => {
        this.#drop('failed', `a note of ${method} that failed in main (${errorMessage(e)})`);
        if (pushed) this.#log('error', errorMessage(e));
      });
    }
  }

  #receiveReply(m: unknown): void {
    const id = replyId(m);
    const method = id === null ? undefined : this.#outgoing.get(id);
    if (id === null || method === undefined) return this.#drop('malformed', 'a reply to no call main is waiting for');
    this.#outgoing.delete(id);
    const reply = readReply(m, this.#maxBytes);
    if (reply.ok) return void this.#router.dispatch({ ch: CHANNEL_PLUGIN, m: reply.value });
    const sentence = `The plugin '${this.pluginId}' answered ${method} with something that is not a valid reply: ${reply.reason}.`;
    this.#drop('malformed', sentence);
    this.#router.dispatch({ ch: CHANNEL_PLUGIN, m: errorReply(id, sentence) });
  }

  /** A message over the cap is never decoded; the call it belongs to, if any, fails with the cap named. */
  #refuseOversize(frame: PipeFrame): void {
    const sentence = `The plugin '${this.pluginId}' sent a message of ${formatBytes(frame.bytes)}, over the limit of ${formatBytes(this.#maxBytes)} per message, so it was refused.`;
    this.#drop('refused', sentence);
    const { ch, id } = frame.peek();
    if (id === undefined) return;
    if (ch === CHANNEL_HOST && !this.process.congested) this.#send({ ch: CHANNEL_HOST, m: errorReply(id, sentence) });
    if (ch === CHANNEL_PLUGIN && this.#outgoing.delete(id)) this.#router.dispatch({ ch: CHANNEL_PLUGIN, m: errorReply(id, sentence) });
  }

  /** Counts a message main did not accept and logs why, at most one line a second per kind. */
  #drop(kind: keyof ConnectionDrops, what: string): void {
    this.#drops[kind]++;
    const now = this.#clock();
    const last = this.#logged.get(kind);
    if (last && now - last.at < 1000) {
      last.quiet++;
      return;
    }
    const quiet = last?.quiet ? ` (${last.quiet} more like it since the last line)` : '';
    this.#logged.set(kind, { at: now, quiet: 0 });
    const sentence = what.startsWith('The plugin') ? what : `The plugin '${this.pluginId}' sent ${what}, which was dropped.`;
    try {
      this.#log('warn', sentence + quiet);
    } catch {
      // Logging is best effort here.
    }
  }

  #admit(): boolean {
    if (this.process.congested) {
      this.#drop('rate', "a host call while it left main's answers unread on its pipe");
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
    this.#drop('rate', `host calls faster than the ${this.#rate} a second main accepts`);
    return false;
  }

  #die(error: Error, exit: PluginExit | null): void {
    if (this.#dead) {
      if (exit) this.#exit = exit;
      return;
    }
    this.#dead = error;
    if (exit) this.#exit = exit;
    if (this.#noteTimer) clearTimeout(this.#noteTimer);
    this.#noteTimer = null;
    for (const note of this.#notes.splice(0)) note.reject(error);
    for (const p of this.#pending) p.reject(error);
    this.#outgoing.clear();
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweep = null;
    this.#died.fire({ error, exit });
    this.#died.dispose();
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
