import { toDisposable } from '../../../shared/disposable.ts';
import {
  Contribution,
  type ContributionKind,
  contributionKey,
  DeclinedContribution,
  eventTopics,
  type Handshake,
  HandshakeReply,
  InitializeResult,
  type LogLevel,
  MAX_DECLARATIONS,
  PLUGIN_STATE_CHANGED_TOPIC,
  PROTOCOL_VERSION,
  startsAtLaunch,
} from '../../../shared/plugins/index.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import { createMainHostApi, type ElicitationAsker } from '../edge/main-host-api.ts';
import { CongestedError, PluginConnection } from '../edge/plugin-connection.ts';
import { describeExit, type PluginLauncher, type PluginProcess } from '../launchers/plugin-launcher.ts';
import type { SharedHostLauncher } from '../launchers/shared-host-launcher.ts';
import type { PluginRegistries } from '../registries/plugin-registries.ts';
import { type CallTimeouts, installContribution, type PluginCaller } from './contribution-installer.ts';
import { type CrashRules, crashVerdict } from './crash-verdict.ts';
import { describeIssue } from './describe-issue.ts';
import { type IdleWatch, watchIdle } from './idle-watch.ts';
import { LazyStart } from './lazy-start.ts';
import { runtimeToolSet } from './runtime-tool-set.ts';
import type { PluginEventBus } from './plugin-event-bus.ts';
import type { PluginInfo, PluginState } from './plugin-info.ts';
import type { PluginLedger } from './plugin-ledger.ts';
import type { PluginRecord } from './plugin-record.ts';

/** Limits every supervisor applies (PluginServiceOptions with their defaults filled in). */
export interface SupervisorLimits {
  initializeTimeoutMs: number;
  /** Between `$shutdown` and the end of the process, and between closing the pipe and SIGKILL. */
  shutdownGraceMs: number;
  crash: CrashRules;
  /** 0: plugins with a `tick` are never ticked. */
  tickIntervalMs: number;
  inboundPerSecond: number | undefined;
  /** Events main holds for one plugin, not yet sent (or, for an idle-watched one, not yet answered); beyond, events to it are dropped. */
  maxEventsInFlight: number;
}

/** What the supervisors of one runtime share: its registries, bus and ledger, and the catalog's answers. */
export interface SupervisorContext {
  readonly registries: PluginRegistries;
  readonly events: PluginEventBus;
  readonly ledger: PluginLedger;
  readonly timeouts: CallTimeouts;
  readonly limits: SupervisorLimits;
  readonly launcher: PluginLauncher;
  readonly sharedLauncher: SharedHostLauncher;
  clock(): number;
  /** The plugin's config, read live. */
  config(pluginId: string): Record<string, unknown>;
  /** True once the runtime is shutting down: nothing starts any more. */
  disposed(): boolean;
  /** The shared host group the plugin runs in, or null for a process of its own. */
  hostGroup(rec: PluginRecord): string | null;
  workspace(): string;
  /** Tells the catalog's listeners what the plugin looks like now, and returns that. */
  notify(rec: PluginRecord): PluginInfo;
  log(rec: PluginRecord, level: LogLevel, message: string): void;
  /** Who puts the plugin's forms to the user; absent, every form is declined. */
  readonly elicitations?: ElicitationAsker;
}

/**
 * Runs one plugin's process: launch, handshake, install of what it declares into the registries through the
 * ledger, ticking, idle stop, crash recovery, and the way down. Its operations run one at a time, in order
 * (`serial`); the catalog decides when, the supervisor does it.
 */
export class PluginSupervisor {
  readonly rec: PluginRecord;
  readonly #ctx: SupervisorContext;
  readonly #lazy: LazyStart;

  constructor(rec: PluginRecord, context: SupervisorContext) {
    this.rec = rec;
    this.#ctx = context;
    this.#lazy = new LazyStart(this, context);
  }

  get #id(): string {
    return this.rec.descriptor.manifest.id;
  }

  /** Runs `op` once every earlier operation on this plugin has settled; a failed one does not stop the queue. */
  serial(op: () => Promise<void>): Promise<void> {
    const next = this.rec.queue.then(op, op);
    this.rec.queue = next.catch(() => {});
    return next;
  }

  /** The running plugin's caller, starting it first when it is idle (see LazyStart). */
  started(): Promise<PluginCaller> {
    return this.#lazy.started();
  }

  setState(state: PluginState, reason: string | null): void {
    const rec = this.rec;
    rec.state = state;
    rec.reason = reason;
    const info = this.#ctx.notify(rec);
    this.#ctx.events.emit(PLUGIN_STATE_CHANGED_TOPIC, { id: info.id, state, reason, enabled: info.enabled });
  }

  clearRestart(): void {
    if (this.rec.restartTimer) clearTimeout(this.rec.restartTimer);
    this.rec.restartTimer = null;
  }

  /**
   * Brings up a plugin that is on: installs its manifest's declarations, then starts its process, unless it
   * starts lazily: then it is `idle` until one of them is used or an event it starts on happens.
   */
  async bringUp(): Promise<void> {
    if (this.#ctx.disposed()) return;
    const { manifest } = this.rec.descriptor;
    if (manifest.protocolVersion !== PROTOCOL_VERSION) {
      await this.#withdraw('incompatible', `The plugin speaks protocol ${manifest.protocolVersion}; Amber speaks ${PROTOCOL_VERSION}.`);
      return;
    }
    if (!this.#installStatics()) return;
    if (startsAtLaunch(manifest)) await this.activate();
    else this.setState('idle', null);
  }

  /** Takes back everything it contributed, ends its process, and leaves it in `next`. */
  async deactivate(next: PluginState, reason: string | null): Promise<void> {
    const conn = this.rec.conn;
    this.rec.pendingEvents = [];
    // Contributions go first, so nothing new reaches a plugin that is shutting down.
    await this.#withdraw(next, reason, conn ? { conn, graceful: conn.alive } : undefined);
  }

  /**
   * Unwinds the plugin's ledger newest-first and forgets what it contributed; then ends `ending`'s process
   * when given; then sets the state. `reason` may depend on how many contributions failed to unwind. Without
   * `ending` it all happens before this returns.
   */
  async #withdraw(
    state: PluginState,
    reason: string | null | ((unwindFailures: number) => string),
    ending?: { conn: PluginConnection; graceful: boolean },
  ): Promise<void> {
    const failures = this.#unwind();
    if (ending) await this.#endProcess(ending.conn, ending.graceful);
    this.setState(state, typeof reason === 'function' ? reason(failures) : reason);
  }

  /** Unwinds the plugin's ledger newest-first and forgets what it contributed; the number that failed to unwind. */
  #unwind(): number {
    const failures = this.#ctx.ledger.unwind(this.#id).length;
    this.rec.contributions = [];
    return failures;
  }

  /**
   * Installs the manifest's declarations (`contributes`), each through a caller that starts the plugin
   * first, and listens on its `onEvent:` topics; all recorded in the ledger. Does nothing when they are
   * installed already. False (the plugin Failed, nothing left installed) when a registry refuses one.
   */
  #installStatics(): boolean {
    const rec = this.rec;
    if (rec.staticsUp) return true;
    const { manifest } = rec.descriptor;
    const id = manifest.id;
    const declared = manifest.contributes ?? [];
    const topics = eventTopics(manifest);
    if (declared.length === 0 && topics.length === 0) return true;
    const { ledger, registries, timeouts } = this.#ctx;
    rec.staticsUp = true;
    // Recorded first, so unwound last: once it is gone, nothing of the manifest's is installed.
    ledger.record(
      id,
      'static',
      toDisposable(() => (rec.staticsUp = false)),
    );
    const caller = this.#lazy.caller();
    try {
      for (const decl of declared) {
        const key = contributionKey(decl);
        const installed = installContribution(registries, id, caller, decl, timeouts, rec.sinks, rec.toolUpdates);
        const withdraw = () => {
          installed.dispose();
          rec.contributions = rec.contributions.filter((c) => !(c.static && c.kind === decl.kind && c.key === key));
        };
        ledger.record(id, staticLabel(decl.kind, key), toDisposable(withdraw));
        rec.contributions.push({ kind: decl.kind, key, status: 'installed', static: true });
      }
    } catch (e) {
      void this.#withdraw('failed', `Its manifest declares something that cannot be installed: ${errorMessage(e)}`);
      return false;
    }
    for (const topic of topics)
      ledger.record(
        id,
        `activation:${topic}`,
        this.#ctx.events.on(topic, (payload) => this.#lazy.onActivationEvent(topic, payload), id),
      );
    return true;
  }

  /** A lazy plugin unused for its `idleStopMinutes`: its process ends and it is `idle` again, its manifest's declarations installed. */
  #onIdle(conn: PluginConnection, watch: IdleWatch): void {
    const rec = this.rec;
    void this.serial(async () => {
      // A call may have started while this waited its turn.
      if (rec.conn !== conn || rec.state !== 'active' || !rec.enabled || this.#ctx.disposed() || !watch.idle) return;
      this.#ctx.log(rec, 'info', `Stopped after ${rec.descriptor.manifest.idleStopMinutes} minute(s) without use; it starts again when it is used.`);
      // In one turn, so no moment is seen where a declared tool is missing.
      this.#unwind();
      if (!this.#installStatics()) return void (await this.#endProcess(conn, true));
      const ending = this.#endProcess(conn, true);
      this.setState('idle', null);
      await ending;
    });
  }

  /** Launches the plugin's process, shakes hands, initializes it and installs what it declares. */
  async activate(): Promise<void> {
    const ctx = this.#ctx;
    if (ctx.disposed()) return;
    const rec = this.rec;
    const { manifest, entry } = rec.descriptor;
    const id = manifest.id;
    // The manifest's declarations stay installed while it starts; what it declares replaces them.
    rec.contributions = rec.contributions.filter((c) => c.static);
    this.setState('activating', null);
    const sinks = rec.sinks;
    const toolUpdates = rec.toolUpdates;
    const runtimeTools = runtimeToolSet(rec, ctx, () => conn);
    let proc: PluginProcess;
    try {
      const group = ctx.hostGroup(rec);
      const frugal = rec.descriptor.source === 'bundled' && manifest.memory === 'frugal';
      proc = group ? ctx.sharedLauncher({ pluginId: id, group }) : ctx.launcher({ pluginId: id, ...(frugal ? { frugal } : {}) });
    } catch (e) {
      await this.#withdraw('failed', `The plugin's process could not be started: ${errorMessage(e)}`);
      return;
    }
    const hostApi = createMainHostApi({
      pluginId: id,
      registries: ctx.registries,
      bus: ctx.events,
      sinks,
      toolUpdates,
      config: () => ctx.config(id),
      // A late call from a process main has let go of must not leave anything behind.
      own: (label, d) => {
        if (rec.conn !== conn) {
          d.dispose();
          return false;
        }
        ctx.ledger.record(id, label, d);
        return true;
      },
      deliver: (topic, payload) => this.deliver(conn, topic, payload),
      log: (level, message, dropped) => {
        if (dropped) rec.dropped.logs += dropped;
        ctx.log(rec, level, message);
      },
      setTools: (tools) => runtimeTools.replace(tools),
      ...(ctx.elicitations ? { elicitations: ctx.elicitations } : {}),
    });
    const conn = new PluginConnection(id, proc, hostApi, { inboundPerSecond: ctx.limits.inboundPerSecond, clock: ctx.clock });
    rec.conn = conn;
    const idleMs = (manifest.idleStopMinutes ?? 0) * 60_000;
    const watch: IdleWatch | null = idleMs > 0 ? watchIdle(conn, idleMs, () => this.#onIdle(conn, watch!)) : null;
    if (watch) ctx.ledger.record(id, 'idle-stop', watch);
    rec.caller = watch?.caller ?? conn;
    // Each line of output is a line of the log (one cut across two reads counts as two).
    proc.onOutput((stream, text) => {
      for (const line of text.split('\n')) if (line.trim() !== '') ctx.log(rec, stream === 'stderr' ? 'warn' : 'info', line.trimEnd());
    });
    proc.onExit((exit) => this.#onExit(conn, describeExit(exit)));

    const initMs = ctx.limits.initializeTimeoutMs;
    let initialized = false;
    try {
      await conn.ready(initMs);
      const hello: Handshake = { protocolVersion: PROTOCOL_VERSION, pluginId: id, entry, settings: ctx.config(id), workspace: ctx.workspace() };
      const reply = HandshakeReply.parse(await conn.call('$handshake', [hello], initMs));
      if (!reply.ok || reply.protocolVersion !== PROTOCOL_VERSION) {
        const reason = reply.ok ? `The plugin host speaks protocol ${reply.protocolVersion}; Amber speaks ${PROTOCOL_VERSION}.` : reply.reason;
        await this.#withdraw('incompatible', reason, { conn, graceful: false });
        return;
      }
      const init = InitializeResult.parse(await conn.call('$initialize', [], initMs));
      initialized = init.initialized;
      if (!init.initialized) throw new Error(init.reason);
      rec.declares.clear();
      if (init.capabilities.length > MAX_DECLARATIONS) {
        throw new Error(
          `The plugin declares ${init.capabilities.length.toLocaleString('en')} contributions; a plugin may declare at most ${MAX_DECLARATIONS}.`,
        );
      }
      for (const [i, raw] of init.capabilities.entries()) {
        if (rec.conn !== conn) throw conn.deadReason ?? new Error('The plugin stopped while it was being installed.');
        this.#install(rec.caller ?? conn, i, raw);
      }
      // The running plugin's word is the latest: what its manifest declared and it did not is not offered while it runs.
      for (const c of rec.contributions.filter((d) => d.static)) {
        ctx.ledger.release(id, staticLabel(c.kind, c.key));
        ctx.log(
          rec,
          'warn',
          `Its manifest declares the ${c.kind} '${c.key}', but the plugin did not declare it when it started, so it is withdrawn until the plugin stops.`,
        );
      }
      if (reply.hasTick && ctx.limits.tickIntervalMs > 0) this.#startTicking(conn);
      this.setState('active', null);
      watch?.arm();
    } catch (e) {
      if (rec.conn !== conn && rec.state !== 'activating') return; // a crash handler already settled it
      const failures = (n: number) => errorMessage(e) + (n ? ` (and ${n} contribution(s) failed to unwind)` : '');
      await this.#withdraw('failed', failures, { conn, graceful: initialized });
    }
  }

  /** Validates one declaration and installs it; throws (failing the plugin) with the field named. */
  #install(caller: PluginCaller, index: number, raw: unknown): void {
    const rec = this.rec;
    if (typeof raw === 'object' && raw !== null && 'declined' in raw) {
      const declined = DeclinedContribution.safeParse(raw);
      if (!declined.success) throw new Error(`Invalid declaration capabilities[${index}]: ${describeIssue(declined.error)}`);
      this.#releaseStatic(declined.data.kind, declined.data.key);
      rec.declares.add(declined.data.kind);
      rec.contributions.push({ kind: declined.data.kind, key: declined.data.key, status: 'declined', reason: declined.data.declined });
      return;
    }
    const parsed = Contribution.safeParse(raw);
    if (!parsed.success) throw new Error(`Invalid declaration capabilities[${index}]${describeRaw(raw)}: ${describeIssue(parsed.error)}`);
    const decl = parsed.data;
    rec.declares.add(decl.kind);
    const key = contributionKey(decl);
    // The manifest's declaration of the same key gives way in the same turn: no gap a model could see.
    this.#releaseStatic(decl.kind, key);
    const disposable = installContribution(this.#ctx.registries, this.#id, caller, decl, this.#ctx.timeouts, rec.sinks, rec.toolUpdates);
    this.#ctx.ledger.record(this.#id, `${decl.kind}:${key}`, disposable);
    rec.contributions.push({ kind: decl.kind, key, status: 'installed' });
  }

  #releaseStatic(kind: ContributionKind, key: string): void {
    if (this.rec.contributions.some((c) => c.static && c.kind === kind && c.key === key)) this.#ctx.ledger.release(this.#id, staticLabel(kind, key));
  }

  /** Ends a plugin process: `$shutdown` (when graceful), close the pipe, SIGKILL after the grace period. */
  async #endProcess(conn: PluginConnection, graceful: boolean): Promise<void> {
    const rec = this.rec;
    if (rec.conn === conn) {
      rec.conn = null;
      rec.caller = null;
    }
    const grace = this.#ctx.limits.shutdownGraceMs;
    const exited = new Promise<void>((r) => conn.process.onExit(() => r()));
    if (graceful && conn.alive) await conn.call('$shutdown', [], grace).catch(() => {});
    conn.close(new AmberError('unavailable', `The plugin '${this.#id}' was switched off.`));
    conn.process.disconnect();
    const timer = setTimeout(() => conn.process.kill('SIGKILL'), grace);
    await exited;
    clearTimeout(timer);
  }

  /** An exit main did not ask for: unwind, Failed, and restart with backoff unless it crashes too often (crashVerdict). */
  #onExit(conn: PluginConnection, how: string): void {
    const rec = this.rec;
    if (rec.conn !== conn || rec.state === 'activating') return;
    rec.conn = null;
    rec.caller = null;
    const verdict = crashVerdict(rec.crashes, this.#ctx.clock(), how, this.#ctx.limits.crash, !this.#ctx.disposed() && rec.enabled);
    rec.crashes = verdict.crashes;
    void this.#withdraw('failed', verdict.reason);
    if (verdict.restartInMs === null) return;
    rec.restartTimer = setTimeout(() => {
      rec.restartTimer = null;
      void this.serial(async () => {
        if (rec.enabled && rec.state === 'failed' && !this.#ctx.disposed()) await this.bringUp();
      });
    }, verdict.restartInMs);
  }

  #startTicking(conn: PluginConnection): void {
    let running = false;
    const timer = setInterval(() => {
      if (running || !conn.alive) return;
      running = true;
      conn
        .call('$tick', [], this.#ctx.timeouts.callMs)
        .catch((e) => this.#ctx.log(this.rec, 'warn', `tick failed: ${errorMessage(e)}`))
        .finally(() => (running = false));
    }, this.#ctx.limits.tickIntervalMs);
    timer.unref();
    this.#ctx.ledger.record(
      this.#id,
      'tick',
      toDisposable(() => clearInterval(timer)),
    );
  }

  /** Sends an event to the running plugin, or drops and counts it when the plugin is behind. */
  deliver(conn: PluginConnection, topic: string, payload: unknown): void {
    const rec = this.rec;
    if (!conn.alive) return;
    // Beyond the events waiting for its answer, or while it leaves its pipe unread, events for it are
    // dropped and counted: what main holds for one plugin stays bounded whatever is emitted.
    if (rec.eventsInFlight >= this.#ctx.limits.maxEventsInFlight || conn.process.congested) {
      rec.dropped.events++;
      return;
    }
    rec.eventsInFlight++;
    // Events go together, one way (notify): nothing waits for the plugin's answer, nor wakes main for it.
    // A plugin with an idle watch gets them as calls through it, so that they count as use until handled.
    const watched = rec.conn === conn && rec.caller !== null && rec.caller !== conn ? rec.caller : null;
    (watched ? watched.call('$event', [topic, payload], this.#ctx.timeouts.callMs) : conn.notify('$event', [topic, payload]))
      .catch((e: unknown) => {
        if (e instanceof CongestedError) rec.dropped.events++;
      })
      .finally(() => rec.eventsInFlight--);
  }
}

/** The ledger label of a manifest's declaration, apart from the running plugin's own of the same key. */
function staticLabel(kind: ContributionKind, key: string): string {
  return `static:${kind}:${key}`;
}

function describeRaw(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const r = raw as { kind?: unknown; name?: unknown; id?: unknown };
  const key = typeof r.name === 'string' ? r.name : typeof r.id === 'string' ? r.id : null;
  return typeof r.kind === 'string' ? ` (${r.kind}${key ? ` '${key}'` : ''})` : '';
}
