import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Disposable, toDisposable } from '../../../shared/disposable.ts';
import { CONTRIBUTION_KINDS, Contribution, type ToolDeclaration, type ContributionKind, contributionKey, DeclinedContribution } from '../../../shared/plugins/index.ts';
import { PLUGIN_STATE_CHANGED_TOPIC } from '../../../shared/plugins/index.ts';
import { MAX_DECLARATIONS } from '../../../shared/plugins/index.ts';
import { type Handshake, HandshakeReply, InitializeResult } from '../../../shared/plugins/index.ts';
import type { LogLevel } from '../../../shared/plugins/index.ts';
import type { PluginConfigSchema } from '../../../shared/plugins/index.ts';
import { PROTOCOL_VERSION } from '../../../shared/plugins/index.ts';
import { eventTopics, startsAtLaunch } from '../../../shared/plugins/index.ts';
import { ProviderProbeRequest, ProviderProbeResult } from '../../../shared/plugins/index.ts';
import { redactSecret } from '../../../shared/providers/index.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import { BUNDLED_PLUGINS } from '../bundled-plugins.ts';
import { type CallTimeouts, installContribution, type PluginCaller, type StreamSinks, type ToolUpdateSinks } from './contribution-installer.ts';
import { createForkLauncher } from '../launchers/fork-launcher.ts';
import { type IdleWatch, watchIdle } from './idle-watch.ts';
import { CongestedError, PluginConnection } from '../edge/plugin-connection.ts';
import { type DiscoveryProblem, discoverPlugins, type PluginDescriptor, type PluginSource } from './plugin-discovery.ts';
import { PluginEventBus } from './plugin-event-bus.ts';
import { createMainHostApi } from '../edge/main-host-api.ts';
import { describeExit, type PluginLauncher, type PluginProcess } from '../launchers/plugin-launcher.ts';
import { createSharedHostLauncher, type SharedHostLauncher } from '../launchers/shared-host-launcher.ts';
import { PluginLedger } from './plugin-ledger.ts';
import { type PluginLogLine, PluginLogRing } from './plugin-log-ring.ts';
import { createPluginRegistries, type PluginRegistries } from '../registries/plugin-registries.ts';

/**
 * `idle`: a lazy plugin that is on but not started: its manifest's declarations are installed, it has no
 * process, and the first use of one (or an event it starts on) starts it.
 */
export type PluginState = 'registered' | 'idle' | 'activating' | 'active' | 'failed' | 'incompatible' | 'deactivated';

export interface ContributionStatus {
  kind: ContributionKind;
  key: string;
  status: 'installed' | 'declined';
  reason?: string;
  /** Set while the plugin runs (HostApi.$setTools) rather than declared by `capabilities()`. */
  runtime?: boolean;
  /** Declared by the manifest (`contributes`) and installed before the plugin runs; using it starts the plugin. */
  static?: boolean;
}

/** What the UI shows for one plugin. */
export interface PluginInfo {
  id: string;
  name: string;
  version: string;
  description: string;
  category: string;
  source: PluginSource;
  enabled: boolean;
  state: PluginState;
  /** Why it is Failed or Incompatible, as a sentence. */
  reason: string | null;
  pid: number | null;
  contributions: ContributionStatus[];
  /**
   * A user plugin the user has not yet agreed to run: switching it on needs `{ confirm: true }`, given
   * once the user has read what it may do (Settings asks). Bundled plugins never need it.
   */
  needsConfirmation: boolean;
  /**
   * Where it runs: `own` process, or the `shared` plugin process of its group (bundled plugins by default,
   * a user plugin only when the user groups it). Takes effect at its next start.
   */
  process: PluginProcessMode;
  /** The kinds of contribution it declared when it last ran (installed or declined), and those its manifest declares. */
  declares: ContributionKind[];
  /** Crashes within the crash window. */
  recentCrashes: number;
  /** Messages dropped because the plugin flooded: host calls (main side), log lines (plugin side), events to it. */
  dropped: { messages: number; logs: number; events: number };
}

/** Where on/off state is kept, and where the default config source reads (SessionStore has both). */
export interface PluginStateStore {
  pluginStates(): Map<string, boolean>;
  setPluginState(pluginId: string, enabled: boolean): void;
  getSetting(key: string): string | null;
  /** Also keeps the user's confirmation that a user plugin may run (`plugin.<id>.confirmed`). */
  setSetting(key: string, value: string | null): void;
}

export interface SetStateOptions {
  /** The user has read what a user plugin may do and agrees to run it; remembered, so asked only once. */
  confirm?: boolean;
}

export type PluginConfigSource = (pluginId: string) => Record<string, unknown>;

export type PluginProcessMode = 'own' | 'shared';

/** The shared host bundled plugins join unless their manifest asks for a process of their own. */
export const BUNDLED_HOST_GROUP = 'bundled';
/** The shared host user plugins join when the user groups them (never the bundled plugins' host). */
export const USER_HOST_GROUP = 'user';

export interface PluginServiceOptions {
  store: PluginStateStore;
  /** Data directory: user plugins are found in `<dataDir>/plugins/<id>/`. */
  dataDir: string;
  workspace?: string;
  launcher?: PluginLauncher;
  /** Starts plugins that share a process; by default shared hosts started through `launcher`. */
  sharedLauncher?: SharedHostLauncher;
  /**
   * Whether plugins may share processes at all (default true). Off, every plugin gets its own process,
   * whatever its manifest or the user's grouping says.
   */
  sharedHosts?: boolean;
  /** Replaces discovery (tests list fixture plugins here). */
  plugins?: PluginDescriptor[];
  /** Read live at each `$getConfig`. Default: the JSON setting `plugin.<id>.config` in the store. */
  config?: PluginConfigSource;
  initializeTimeoutMs?: number;
  callTimeoutMs?: number;
  toolTimeoutMs?: number;
  streamIdleTimeoutMs?: number;
  /** Between `$shutdown` and the end of the process, and between closing the pipe and SIGKILL. */
  shutdownGraceMs?: number;
  /** First restart delay after a crash; doubled for each further crash in the window. */
  restartBackoffMs?: number;
  crashLimit?: number;
  crashWindowMs?: number;
  tickIntervalMs?: number;
  inboundPerSecond?: number;
  /** Events main sends to one plugin that may wait for its answer; beyond, events to it are dropped. */
  maxEventsInFlight?: number;
  clock?: () => number;
  onLog?: (pluginId: string, line: PluginLogLine) => void;
}

interface PluginRecord {
  descriptor: PluginDescriptor;
  enabled: boolean;
  state: PluginState;
  reason: string | null;
  conn: PluginConnection | null;
  /** What main's calls into the running process go through (the connection, watched for idleness). */
  caller: PluginCaller | null;
  contributions: ContributionStatus[];
  /** Kinds declared at the last activation; kept after it stops, so Settings can say what it adds. */
  declares: Set<ContributionKind>;
  crashes: number[];
  restartTimer: ReturnType<typeof setTimeout> | null;
  queue: Promise<void>;
  /** The newest lines of its log, stdout and stderr, within MAX_PLUGIN_LOG_BYTES. */
  logs: PluginLogRing;
  dropped: { messages: number; logs: number; events: number };
  eventsInFlight: number;
  /** Routes of the plugin's stream events and tool updates; kept across starts, since its manifest's tools outlive a process. */
  sinks: StreamSinks;
  toolUpdates: ToolUpdateSinks;
  /** The start a first use set off, shared by every use that arrives before it settles. */
  starting: Promise<void> | null;
  /** Whether the manifest's declarations and activation listeners are installed (their ledger entries clear it). */
  staticsUp: boolean;
  /** Events that arrived on an `onEvent:` topic while the plugin was not started: delivered once it is. */
  pendingEvents: { topic: string; payload: unknown }[];
}

/** Events kept for a lazy plugin while it starts; more are dropped and counted. */
const MAX_PENDING_EVENTS = 64;

/**
 * Runs plugins, one process each: discovery, handshake, install into the registries through the ledger,
 * lifecycle (Registered → Active | Failed | Incompatible; Active → Deactivated), live on/off, crash recovery.
 * Operations on one plugin run one at a time, in order; different plugins proceed in parallel.
 */
export class PluginService {
  readonly registries: PluginRegistries = createPluginRegistries();
  readonly events = new PluginEventBus();
  readonly ledger = new PluginLedger();
  readonly problems: DiscoveryProblem[] = [];
  readonly #records = new Map<string, PluginRecord>();
  readonly #options: PluginServiceOptions;
  readonly #launcher: PluginLauncher;
  readonly #sharedLauncher: SharedHostLauncher;
  readonly #timeouts: CallTimeouts;
  readonly #clock: () => number;
  readonly #listeners = new Set<(info: PluginInfo) => void>();
  #config: PluginConfigSource;
  #disposed = false;

  constructor(options: PluginServiceOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#launcher = options.launcher ?? createForkLauncher();
    this.#sharedLauncher = options.sharedLauncher ?? createSharedHostLauncher(this.#launcher);
    this.#config = options.config ?? ((id) => readConfigSetting(options.store, id));
    this.#timeouts = {
      callMs: options.callTimeoutMs ?? 10_000,
      toolMs: options.toolTimeoutMs ?? 300_000,
      streamIdleMs: options.streamIdleTimeoutMs ?? 120_000,
    };
    let descriptors = options.plugins;
    if (!descriptors) {
      const found = this.#discover();
      descriptors = found.plugins;
      this.problems.push(...found.problems);
    }
    for (const descriptor of descriptors) this.#records.set(descriptor.manifest.id, newRecord(descriptor));
    // The SDK does not wait on emits, so the plugin's log is where its author sees a refused one.
    this.events.onDidRefuse(({ from, message }) => {
      const rec = this.#records.get(from);
      if (rec) this.#log(rec, 'warn', message);
    });
  }

  /** `<dataDir>/plugins`: one folder per user plugin. */
  get userFolder(): string {
    return join(this.#options.dataDir, 'plugins');
  }

  /**
   * Looks on disk again: plugins found for the first time are registered and, when on, activated; the
   * ones already known keep running as they are. Discovery problems are replaced by the new ones.
   * Resolves with the new plugins' ids once they have settled. Without discovery (a fixed list), finds nothing.
   */
  async rescan(): Promise<string[]> {
    if (this.#options.plugins || this.#disposed) return [];
    const found = this.#discover();
    this.problems.splice(0, this.problems.length, ...found.problems);
    const saved = this.#options.store.pluginStates();
    const added: PluginRecord[] = [];
    for (const descriptor of found.plugins) {
      if (this.#records.has(descriptor.manifest.id)) continue;
      const rec = newRecord(descriptor);
      rec.enabled = this.#initiallyOn(descriptor, saved);
      this.#records.set(descriptor.manifest.id, rec);
      added.push(rec);
    }
    await Promise.all(added.map((rec) => (rec.enabled ? this.#serial(rec, () => this.#bringUp(rec)) : (this.#setState(rec, 'registered', null), Promise.resolve()))));
    return added.map((rec) => rec.descriptor.manifest.id);
  }

  /** On before anyone switches it: a bundled plugin's manifest decides; a user plugin's never does. */
  #initiallyOn(descriptor: PluginDescriptor, saved: Map<string, boolean>): boolean {
    const id = descriptor.manifest.id;
    if (descriptor.source === 'user') return saved.get(id) === true && this.#options.store.getSetting(confirmationKey(id)) !== null;
    return saved.get(id) ?? descriptor.manifest.enabledByDefault ?? true;
  }

  #needsConfirmation(rec: PluginRecord): boolean {
    return rec.descriptor.source === 'user' && this.#options.store.getSetting(confirmationKey(rec.descriptor.manifest.id)) === null;
  }

  #discover(): { plugins: PluginDescriptor[]; problems: DiscoveryProblem[] } {
    return discoverPlugins({ ...defaultBundledRoot(), bundledIds: BUNDLED_PLUGINS, userRoot: this.userFolder });
  }

  /**
   * Activates every plugin that is on (persisted state, else a bundled plugin's default; a user plugin only
   * once the user has switched it on and confirmed); a lazy one gets its manifest's declarations installed
   * and is left `idle` until it is used. Resolves when all settled.
   */
  async start(): Promise<void> {
    const saved = this.#options.store.pluginStates();
    await Promise.all(
      [...this.#records.values()].map((rec) => {
        rec.enabled = this.#initiallyOn(rec.descriptor, saved);
        return rec.enabled ? this.#serial(rec, () => this.#bringUp(rec)) : Promise.resolve();
      }),
    );
  }

  list(): PluginInfo[] {
    return [...this.#records.values()].map((r) => this.#info(r));
  }

  get(id: string): PluginInfo {
    return this.#info(this.#record(id));
  }

  logs(id: string): PluginLogLine[] {
    return this.#record(id).logs.lines();
  }

  /**
   * The one write path for on/off: persists, then activates or deactivates live. Enabling a plugin that
   * crashed too often clears its crash history. Resolves with the plugin's state once settled. Switching
   * on a user plugin the user never confirmed throws (`denied`) unless `confirm` is given, which is kept.
   */
  async setState(id: string, on: boolean, options: SetStateOptions = {}): Promise<PluginInfo> {
    const rec = this.#record(id);
    if (this.#disposed) throw new AmberError('unavailable', 'The plugin runtime is shutting down.');
    if (on && this.#needsConfirmation(rec)) {
      if (!options.confirm) {
        throw new AmberError(
          'denied',
          `${rec.descriptor.manifest.name} is a plugin you added, and it has not been switched on before: turn it on in Settings → Plugins, which shows what it will be able to do and asks you to confirm.`,
        );
      }
      this.#options.store.setSetting(confirmationKey(id), new Date(this.#clock()).toISOString());
    }
    this.#options.store.setPluginState(id, on);
    rec.enabled = on;
    this.#clearRestart(rec);
    if (on) rec.crashes = [];
    await this.#serial(rec, async () => {
      if (on && rec.state !== 'active' && rec.state !== 'idle' && rec.enabled) await this.#bringUp(rec);
      if (!on && !rec.enabled && (rec.conn || rec.staticsUp)) await this.#deactivate(rec, 'deactivated', null);
      if (!on && (rec.state === 'failed' || rec.state === 'incompatible')) this.#setState(rec, 'deactivated', null);
    });
    return this.#info(rec);
  }

  /**
   * The connection test of a provider plugin (its `probe`): lists the models of the endpoint in `request`.
   * Starts nothing: a plugin that is off, Failed or has no probe makes it throw (`unavailable`) with a
   * sentence saying what to do; one still activating is waited for, up to `timeoutMs`. The plugin gets
   * `timeoutMs` for the test itself. The answer is checked against ProviderProbeResult and the key removed
   * from it here too, whatever the plugin did.
   */
  /**
   * The window shows the panel `panelId`: a lazy plugin whose manifest lists `onPanel` (or `onPanel:<id>`)
   * for it starts now, so its panel shows live content rather than its manifest's. Resolves true when it was
   * started for this (or is running); never throws — a start that fails leaves the plugin Failed, as always.
   */
  async panelOpened(panelId: string): Promise<boolean> {
    const holder = this.registries.panels.get(panelId);
    const rec = holder ? this.#records.get(holder.pluginId) : undefined;
    if (!rec) return false;
    if (rec.state === 'active') return true;
    const events = rec.descriptor.manifest.activationEvents ?? [];
    if (rec.state !== 'idle' || !(events.includes('onPanel') || events.includes(`onPanel:${panelId}`))) return false;
    try {
      await this.#started(rec);
      return true;
    } catch {
      return false;
    }
  }

  async probe(id: string, request: ProviderProbeRequest, options: { timeoutMs?: number; startWaitMs?: number } = {}): Promise<ProviderProbeResult> {
    const rec = this.#record(id);
    const checked = ProviderProbeRequest.parse(request);
    const timeoutMs = options.timeoutMs ?? this.#timeouts.callMs;
    const name = rec.descriptor.manifest.name;
    // On but not settled yet (the app is starting, or it is being switched on): wait for that, briefly.
    // Starting can take longer than the test itself on a loaded machine: `startWaitMs` is its own budget.
    if (rec.enabled && (rec.state === 'activating' || rec.state === 'registered')) await settledWithin(rec.queue, options.startWaitMs ?? timeoutMs);
    if (rec.enabled && rec.state === 'idle') await settledWithin(this.#started(rec), options.startWaitMs ?? timeoutMs);
    const conn = rec.conn;
    if (!rec.enabled || rec.state === 'deactivated' || rec.state === 'registered') {
      throw new AmberError('unavailable', `Turn the ${name} plugin on in Settings to test a connection.`);
    }
    if (rec.state !== 'active' || !conn) {
      throw new AmberError('unavailable', `The ${name} plugin is not running${rec.reason ? ` (${rec.reason.replace(/\.$/, '')})` : ''}, so the connection cannot be tested. Switch it off and on in Settings, then test again.`);
    }
    let raw: unknown;
    try {
      // The plugin gives up at timeoutMs and answers; the margin is for the pipe, so a hung plugin still ends it.
      raw = await conn.call('$probe', [checked, timeoutMs], timeoutMs + 2000);
    } catch (e) {
      throw new AmberError('unavailable', redactSecret(`The ${name} plugin could not test the connection: ${errorMessage(e)}`, checked.apiKey));
    }
    const parsed = ProviderProbeResult.safeParse(raw);
    if (!parsed.success) {
      this.#log(rec, 'warn', redactSecret(`Its connection test answer was refused: ${issue(parsed.error)}`, checked.apiKey));
      throw new AmberError('unavailable', `The ${name} plugin answered the connection test with something Amber cannot read, so the test says nothing; the plugin's log has the reason.`);
    }
    const { ok, models, message } = parsed.data;
    return { ok, models: models.map((m) => redactSecret(m, checked.apiKey)), message: redactSecret(message, checked.apiKey) };
  }

  /** The settings the plugin's manifest declares (its `configuration`), or null when it declares none. */
  configuration(id: string): PluginConfigSchema | null {
    return this.#record(id).descriptor.manifest.configuration ?? null;
  }

  /**
   * Stops and starts again a plugin that is on, so that what it declares follows settings it reads only
   * at start (the wallet declares a wallet per account with a key). A plugin that is off stays off.
   */
  async restart(id: string): Promise<PluginInfo> {
    const rec = this.#record(id);
    if (this.#disposed) throw new AmberError('unavailable', 'The plugin runtime is shutting down.');
    this.#clearRestart(rec);
    await this.#serial(rec, async () => {
      if (!rec.enabled) return;
      if (rec.conn || rec.staticsUp) await this.#deactivate(rec, 'deactivated', null);
      if (rec.enabled && !this.#disposed) await this.#bringUp(rec);
    });
    return this.#info(rec);
  }

  /** Hears every state change (also emitted on `events` as `plugin.stateChanged`). */
  onDidChange(listener: (info: PluginInfo) => void): Disposable {
    this.#listeners.add(listener);
    return toDisposable(() => this.#listeners.delete(listener));
  }

  /** Stops every plugin (shutdown, grace, then kill) and resolves once no plugin process is left. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const records = [...this.#records.values()];
    for (const rec of records) this.#clearRestart(rec);
    // A plugin still activating is cut short: closing its connection fails the pending handshake at once.
    for (const rec of records) if (rec.state === 'activating') rec.conn?.close(new AmberError('unavailable', 'The app is shutting down.'));
    await Promise.all(records.map((rec) => this.#serial(rec, () => (rec.conn || rec.staticsUp ? this.#deactivate(rec, 'deactivated', null) : Promise.resolve()))));
  }

  // ── lifecycle ───────────────────────────────────────────────────────────

  /**
   * Brings up a plugin that is on: installs its manifest's declarations, then starts its process, unless it
   * starts lazily: then it is `idle` until one of them is used or an event it starts on happens.
   */
  async #bringUp(rec: PluginRecord): Promise<void> {
    if (this.#disposed) return;
    const { manifest } = rec.descriptor;
    if (manifest.protocolVersion !== PROTOCOL_VERSION) {
      rec.contributions = [];
      this.#setState(rec, 'incompatible', `The plugin speaks protocol ${manifest.protocolVersion}; Amber speaks ${PROTOCOL_VERSION}.`);
      return;
    }
    if (!this.#installStatics(rec)) return;
    if (startsAtLaunch(manifest)) await this.#activate(rec);
    else this.#setState(rec, 'idle', null);
  }

  /**
   * Installs the manifest's declarations (`contributes`), each through a caller that starts the plugin
   * first, and listens on its `onEvent:` topics; all recorded in the ledger. Does nothing when they are
   * installed already. False (the plugin Failed, nothing left installed) when a registry refuses one.
   */
  #installStatics(rec: PluginRecord): boolean {
    if (rec.staticsUp) return true;
    const { manifest } = rec.descriptor;
    const id = manifest.id;
    const declared = manifest.contributes ?? [];
    const topics = eventTopics(manifest);
    if (declared.length === 0 && topics.length === 0) return true;
    rec.staticsUp = true;
    // Recorded first, so unwound last: once it is gone, nothing of the manifest's is installed.
    this.ledger.record(id, 'static', toDisposable(() => (rec.staticsUp = false)));
    const caller = this.#lazyCaller(rec);
    try {
      for (const decl of declared) {
        const key = contributionKey(decl);
        const installed = installContribution(this.registries, id, caller, decl, this.#timeouts, rec.sinks, rec.toolUpdates);
        const withdraw = () => {
          installed.dispose();
          rec.contributions = rec.contributions.filter((c) => !(c.static && c.kind === decl.kind && c.key === key));
        };
        this.ledger.record(id, staticLabel(decl.kind, key), toDisposable(withdraw));
        rec.contributions.push({ kind: decl.kind, key, status: 'installed', static: true });
      }
    } catch (e) {
      this.ledger.unwind(id);
      rec.contributions = [];
      this.#setState(rec, 'failed', `Its manifest declares something that cannot be installed: ${errorMessage(e)}`);
      return false;
    }
    for (const topic of topics) this.ledger.record(id, `activation:${topic}`, this.events.on(topic, (payload) => this.#onActivationEvent(rec, topic, payload), id));
    return true;
  }

  /** Calls into a plugin that may not be running yet: the first one starts it (see #started). */
  #lazyCaller(rec: PluginRecord): PluginCaller {
    return {
      call: (method, args, timeoutMs) => {
        // Cancelling never starts a plugin: a call that is not running has nothing to cancel.
        if (method === '$cancel' && !(rec.state === 'active' && rec.caller)) return Promise.resolve(undefined as never);
        return this.#started(rec).then((caller) => caller.call(method, args, timeoutMs));
      },
      // The config is main's to read: a plugin that is not running yet need not start for it.
      config: async () => structuredClone(this.#config(rec.descriptor.manifest.id)),
    };
  }

  /**
   * The running plugin's caller, starting a lazy plugin that is `idle` first. Uses that arrive while it starts
   * share the one start. Throws (`unavailable`) with a sentence naming the plugin and why when it cannot run.
   */
  async #started(rec: PluginRecord): Promise<PluginCaller> {
    if (rec.state === 'active' && rec.caller) return rec.caller;
    rec.starting ??= this.#serial(rec, async () => {
      if (rec.enabled && !this.#disposed && rec.state === 'idle') await this.#activate(rec);
    }).finally(() => (rec.starting = null));
    await rec.starting;
    if (rec.state === 'active' && rec.caller) return rec.caller;
    const name = rec.descriptor.manifest.name;
    if (rec.state === 'failed' || rec.state === 'incompatible') throw new AmberError('unavailable', `The plugin ${name} could not be started: ${rec.reason ?? 'no reason was given.'}`);
    throw new AmberError('unavailable', `The plugin ${name} is switched off.`);
  }

  /** An event on an `onEvent:` topic: starts an idle plugin and delivers it once it runs (a running one hears it itself). */
  #onActivationEvent(rec: PluginRecord, topic: string, payload: unknown): void {
    if (rec.state !== 'idle') return;
    if (rec.pendingEvents.length >= MAX_PENDING_EVENTS) {
      rec.dropped.events++;
      return;
    }
    rec.pendingEvents.push({ topic, payload });
    this.#started(rec).then(
      () => {
        const conn = rec.conn;
        for (const event of rec.pendingEvents.splice(0)) if (conn) this.#deliver(rec, conn, event.topic, event.payload);
      },
      (e: unknown) => {
        rec.pendingEvents = [];
        this.#log(rec, 'warn', `It did not start for the event '${topic}': ${errorMessage(e)}`);
      },
    );
  }

  /** A lazy plugin unused for its `idleStopMinutes`: its process ends and it is `idle` again, its manifest's declarations installed. */
  #onIdle(rec: PluginRecord, conn: PluginConnection, watch: IdleWatch): void {
    void this.#serial(rec, async () => {
      // A call may have started while this waited its turn.
      if (rec.conn !== conn || rec.state !== 'active' || !rec.enabled || this.#disposed || !watch.idle) return;
      this.#log(rec, 'info', `Stopped after ${rec.descriptor.manifest.idleStopMinutes} minute(s) without use; it starts again when it is used.`);
      // In one turn, so no moment is seen where a declared tool is missing.
      this.ledger.unwind(rec.descriptor.manifest.id);
      rec.contributions = [];
      if (!this.#installStatics(rec)) return void (await this.#endProcess(rec, conn, true));
      const ending = this.#endProcess(rec, conn, true);
      this.#setState(rec, 'idle', null);
      await ending;
    });
  }

  async #activate(rec: PluginRecord): Promise<void> {
    if (this.#disposed) return;
    const { manifest, entry } = rec.descriptor;
    const id = manifest.id;
    // The manifest's declarations stay installed while it starts; what it declares replaces them.
    rec.contributions = rec.contributions.filter((c) => c.static);
    this.#setState(rec, 'activating', null);
    const sinks = rec.sinks;
    const toolUpdates = rec.toolUpdates;
    const runtimeTools = this.#runtimeTools(rec, () => conn, sinks, toolUpdates);
    let proc: PluginProcess;
    try {
      const group = this.#hostGroup(rec);
      proc = group ? this.#sharedLauncher({ pluginId: id, group }) : this.#launcher({ pluginId: id });
    } catch (e) {
      this.ledger.unwind(id);
      rec.contributions = [];
      this.#setState(rec, 'failed', `The plugin's process could not be started: ${errorMessage(e)}`);
      return;
    }
    const hostApi = createMainHostApi({
      pluginId: id,
      registries: this.registries,
      bus: this.events,
      sinks,
      toolUpdates,
      config: () => this.#config(id),
      // A late call from a process main has let go of must not leave anything behind.
      own: (label, d) => {
        if (rec.conn !== conn) {
          d.dispose();
          return false;
        }
        this.ledger.record(id, label, d);
        return true;
      },
      deliver: (topic, payload) => this.#deliver(rec, conn, topic, payload),
      log: (level, message, dropped) => {
        if (dropped) rec.dropped.logs += dropped;
        this.#log(rec, level, message);
      },
      setTools: (tools) => runtimeTools.replace(tools),
    });
    const conn = new PluginConnection(id, proc, hostApi, { inboundPerSecond: this.#options.inboundPerSecond, clock: this.#clock });
    rec.conn = conn;
    const idleMs = (manifest.idleStopMinutes ?? 0) * 60_000;
    const watch: IdleWatch | null = idleMs > 0 ? watchIdle(conn, idleMs, () => this.#onIdle(rec, conn, watch!)) : null;
    if (watch) this.ledger.record(id, 'idle-stop', watch);
    rec.caller = watch?.caller ?? conn;
    // Each line of output is a line of the log (one cut across two reads counts as two).
    proc.onOutput((stream, text) => {
      for (const line of text.split('\n')) if (line.trim() !== '') this.#log(rec, stream === 'stderr' ? 'warn' : 'info', line.trimEnd());
    });
    proc.onExit((exit) => this.#onExit(rec, conn, describeExit(exit)));

    const initMs = this.#options.initializeTimeoutMs ?? 10_000;
    let initialized = false;
    try {
      await conn.ready(initMs);
      const hello: Handshake = { protocolVersion: PROTOCOL_VERSION, pluginId: id, entry, settings: this.#config(id), workspace: this.#workspace() };
      const reply = HandshakeReply.parse(await conn.call('$handshake', [hello], initMs));
      if (!reply.ok || reply.protocolVersion !== PROTOCOL_VERSION) {
        const reason = reply.ok ? `The plugin host speaks protocol ${reply.protocolVersion}; Amber speaks ${PROTOCOL_VERSION}.` : reply.reason;
        await this.#endProcess(rec, conn, false);
        this.ledger.unwind(id);
        rec.contributions = [];
        this.#setState(rec, 'incompatible', reason);
        return;
      }
      const init = InitializeResult.parse(await conn.call('$initialize', [], initMs));
      initialized = init.initialized;
      if (!init.initialized) throw new Error(init.reason);
      rec.declares.clear();
      if (init.capabilities.length > MAX_DECLARATIONS) {
        throw new Error(`The plugin declares ${init.capabilities.length.toLocaleString('en')} contributions; a plugin may declare at most ${MAX_DECLARATIONS}.`);
      }
      for (const [i, raw] of init.capabilities.entries()) {
        if (rec.conn !== conn) throw conn.deadReason ?? new Error('The plugin stopped while it was being installed.');
        this.#install(rec, rec.caller ?? conn, i, raw, sinks, toolUpdates);
      }
      // The running plugin's word is the latest: what its manifest declared and it did not is not offered while it runs.
      for (const c of rec.contributions.filter((d) => d.static)) {
        this.ledger.release(id, staticLabel(c.kind, c.key));
        this.#log(rec, 'warn', `Its manifest declares the ${c.kind} '${c.key}', but the plugin did not declare it when it started, so it is withdrawn until the plugin stops.`);
      }
      if (reply.hasTick && (this.#options.tickIntervalMs ?? 5000) > 0) this.#startTicking(rec, conn);
      this.#setState(rec, 'active', null);
      watch?.arm();
    } catch (e) {
      if (rec.conn !== conn && rec.state !== 'activating') return; // a crash handler already settled it
      const errors = this.ledger.unwind(id);
      rec.contributions = [];
      await this.#endProcess(rec, conn, initialized);
      const reason = errorMessage(e) + (errors.length ? ` (and ${errors.length} contribution(s) failed to unwind)` : '');
      this.#setState(rec, 'failed', reason);
    }
  }

  /** Validates one declaration and installs it; throws (failing the plugin) with the field named. */
  #install(rec: PluginRecord, conn: PluginCaller, index: number, raw: unknown, sinks: StreamSinks, toolUpdates: ToolUpdateSinks): void {
    const id = rec.descriptor.manifest.id;
    if (typeof raw === 'object' && raw !== null && 'declined' in raw) {
      const declined = DeclinedContribution.safeParse(raw);
      if (!declined.success) throw new Error(`Invalid declaration capabilities[${index}]: ${issue(declined.error)}`);
      this.#releaseStatic(rec, declined.data.kind, declined.data.key);
      rec.declares.add(declined.data.kind);
      rec.contributions.push({ kind: declined.data.kind, key: declined.data.key, status: 'declined', reason: declined.data.declined });
      return;
    }
    const parsed = Contribution.safeParse(raw);
    if (!parsed.success) throw new Error(`Invalid declaration capabilities[${index}]${describeRaw(raw)}: ${issue(parsed.error)}`);
    const decl = parsed.data;
    rec.declares.add(decl.kind);
    const key = contributionKey(decl);
    // The manifest's declaration of the same key gives way in the same turn: no gap a model could see.
    this.#releaseStatic(rec, decl.kind, key);
    const disposable = installContribution(this.registries, id, conn, decl, this.#timeouts, sinks, toolUpdates);
    this.ledger.record(id, `${decl.kind}:${key}`, disposable);
    rec.contributions.push({ kind: decl.kind, key, status: 'installed' });
  }

  #releaseStatic(rec: PluginRecord, kind: ContributionKind, key: string): void {
    if (rec.contributions.some((c) => c.static && c.kind === kind && c.key === key)) this.ledger.release(rec.descriptor.manifest.id, staticLabel(kind, key));
  }

  /**
   * The tools a plugin sets while it runs (`$setTools`): each call replaces the whole set. They are installed
   * like declared tools and held by one ledger entry, so deactivation, failure and crash remove them too.
   */
  #runtimeTools(rec: PluginRecord, currentConn: () => PluginConnection, sinks: StreamSinks, toolUpdates: ToolUpdateSinks): { replace(tools: ToolDeclaration[]): void } {
    const id = rec.descriptor.manifest.id;
    const installed = new Map<string, Disposable>();
    let owned = false;
    const clear = () => {
      for (const d of [...installed.values()].reverse()) d.dispose();
      rec.contributions = rec.contributions.filter((c) => !(c.kind === 'tool' && installed.has(c.key) && c.runtime));
      installed.clear();
    };
    return {
      replace: (tools) => {
        const conn = currentConn();
        if (rec.conn !== conn || rec.state === 'failed' || rec.state === 'deactivated') throw new Error('The plugin is not running, so its tools were not set.');
        // A refused set changes nothing: names are checked before the previous set is removed.
        const seen = new Set<string>();
        for (const decl of tools) {
          if (seen.has(decl.name)) throw new Error(`The tools were not set: the tool '${decl.name}' is in the set twice.`);
          seen.add(decl.name);
          const holder = this.registries.tools.get(decl.name);
          if (holder && !installed.has(decl.name)) throw new Error(`The tools were not set: the tool '${decl.name}' is already registered by the plugin '${holder.pluginId}'.`);
        }
        clear();
        try {
          for (const decl of tools) {
            installed.set(decl.name, installContribution(this.registries, id, rec.caller ?? conn, decl, this.#timeouts, sinks, toolUpdates));
          }
        } catch (e) {
          clear();
          throw new Error(`The tools were not set: ${errorMessage(e)}`, { cause: e });
        }
        for (const name of installed.keys()) rec.contributions.push({ kind: 'tool', key: name, status: 'installed', runtime: true });
        if (!owned) {
          owned = true;
          this.ledger.record(id, 'tools:runtime', toDisposable(clear));
        }
        // While it activates, the change of state to come says it; after, the listeners hear of the new set.
        if (rec.state === 'active') this.#notify(rec);
      },
    };
  }

  async #deactivate(rec: PluginRecord, next: PluginState, reason: string | null): Promise<void> {
    const conn = rec.conn;
    // Contributions go first, so nothing new reaches a plugin that is shutting down.
    this.ledger.unwind(rec.descriptor.manifest.id);
    rec.contributions = [];
    rec.pendingEvents = [];
    if (conn) await this.#endProcess(rec, conn, conn.alive);
    this.#setState(rec, next, reason);
  }

  /** Ends a plugin process: `$shutdown` (when graceful), close the pipe, SIGKILL after the grace period. */
  async #endProcess(rec: PluginRecord, conn: PluginConnection, graceful: boolean): Promise<void> {
    if (rec.conn === conn) {
      rec.conn = null;
      rec.caller = null;
    }
    const grace = this.#options.shutdownGraceMs ?? 2000;
    const exited = new Promise<void>((r) => conn.process.onExit(() => r()));
    if (graceful && conn.alive) await conn.call('$shutdown', [], grace).catch(() => {});
    conn.close(new AmberError('unavailable', `The plugin '${rec.descriptor.manifest.id}' was switched off.`));
    conn.process.disconnect();
    const timer = setTimeout(() => conn.process.kill('SIGKILL'), grace);
    await exited;
    clearTimeout(timer);
  }

  /** An exit main did not ask for: unwind, Failed, and restart with backoff unless it crashes too often. */
  #onExit(rec: PluginRecord, conn: PluginConnection, how: string): void {
    if (rec.conn !== conn || rec.state === 'activating') return;
    rec.conn = null;
    rec.caller = null;
    this.ledger.unwind(rec.descriptor.manifest.id);
    rec.contributions = [];
    const now = this.#clock();
    const windowMs = this.#options.crashWindowMs ?? 5 * 60_000;
    const limit = this.#options.crashLimit ?? 3;
    rec.crashes = [...rec.crashes.filter((t) => now - t < windowMs), now];
    const base = `The plugin's process ${how}.`;
    if (this.#disposed || !rec.enabled) {
      this.#setState(rec, 'failed', base);
      return;
    }
    if (rec.crashes.length >= limit) {
      this.#setState(rec, 'failed', `${base} It crashed ${rec.crashes.length} times in ${Math.round(windowMs / 60_000)} minutes, so it stays off until you enable it again.`);
      return;
    }
    const delay = (this.#options.restartBackoffMs ?? 1000) * 2 ** (rec.crashes.length - 1);
    this.#setState(rec, 'failed', `${base} Restarting in ${delay >= 1000 ? `${delay / 1000} s` : `${delay} ms`}.`);
    rec.restartTimer = setTimeout(() => {
      rec.restartTimer = null;
      void this.#serial(rec, async () => {
        if (rec.enabled && rec.state === 'failed' && !this.#disposed) await this.#bringUp(rec);
      });
    }, delay);
  }

  #startTicking(rec: PluginRecord, conn: PluginConnection): void {
    let running = false;
    const timer = setInterval(() => {
      if (running || !conn.alive) return;
      running = true;
      conn
        .call('$tick', [], this.#timeouts.callMs)
        .catch((e) => this.#log(rec, 'warn', `tick failed: ${errorMessage(e)}`))
        .finally(() => (running = false));
    }, this.#options.tickIntervalMs ?? 5000);
    timer.unref();
    this.ledger.record(rec.descriptor.manifest.id, 'tick', toDisposable(() => clearInterval(timer)));
  }

  #deliver(rec: PluginRecord, conn: PluginConnection, topic: string, payload: unknown): void {
    if (!conn.alive) return;
    // Beyond the events waiting for its answer, or while it leaves its pipe unread, events for it are
    // dropped and counted: what main holds for one plugin stays bounded whatever is emitted.
    if (rec.eventsInFlight >= (this.#options.maxEventsInFlight ?? 256) || conn.process.congested) {
      rec.dropped.events++;
      return;
    }
    rec.eventsInFlight++;
    // Events go together (notify); a plugin with an idle watch gets them through it, so they count as use.
    const watched = rec.conn === conn && rec.caller !== null && rec.caller !== conn ? rec.caller : null;
    (watched ? watched.call('$event', [topic, payload], this.#timeouts.callMs) : conn.notify('$event', [topic, payload], this.#timeouts.callMs))
      .catch((e: unknown) => {
        if (e instanceof CongestedError) rec.dropped.events++;
      })
      .finally(() => rec.eventsInFlight--);
  }

  // ── helpers ─────────────────────────────────────────────────────────────

  #serial(rec: PluginRecord, op: () => Promise<void>): Promise<void> {
    const next = rec.queue.then(op, op);
    rec.queue = next.catch(() => {});
    return next;
  }

  #setState(rec: PluginRecord, state: PluginState, reason: string | null): void {
    rec.state = state;
    rec.reason = reason;
    const info = this.#notify(rec);
    this.events.emit(PLUGIN_STATE_CHANGED_TOPIC, { id: info.id, state, reason, enabled: info.enabled });
  }

  /** Tells the listeners what the plugin looks like now (its state, or what it contributes, changed). */
  #notify(rec: PluginRecord): PluginInfo {
    const info = this.#info(rec);
    for (const l of this.#listeners) {
      try {
        l(info);
      } catch {
        // A listener's failure is its own.
      }
    }
    return info;
  }

  #log(rec: PluginRecord, level: LogLevel, message: string): void {
    const line = rec.logs.push(this.#clock(), level, message);
    this.#options.onLog?.(rec.descriptor.manifest.id, line);
  }

  #clearRestart(rec: PluginRecord): void {
    if (rec.restartTimer) clearTimeout(rec.restartTimer);
    rec.restartTimer = null;
  }

  #record(id: string): PluginRecord {
    const rec = this.#records.get(id);
    if (!rec) throw new AmberError('not_found', `There is no plugin '${id}'.`);
    return rec;
  }

  /**
   * The shared host a plugin runs in, or null for a process of its own. Bundled plugins share one unless
   * their manifest says `"process": "own"`; a user plugin shares only when the user grouped it, and never
   * with the bundled ones.
   */
  #hostGroup(rec: PluginRecord): string | null {
    if (this.#options.sharedHosts === false) return null;
    const { manifest, source } = rec.descriptor;
    if (source === 'bundled') return manifest.process === 'own' ? null : BUNDLED_HOST_GROUP;
    return this.#options.store.getSetting(processKey(manifest.id)) === 'shared' ? USER_HOST_GROUP : null;
  }

  /**
   * Where a user plugin runs: its own process (the default) or the shared process of the user's grouped
   * plugins. Remembered; a running plugin restarts there. Bundled plugins' placement is their manifest's.
   */
  async setProcess(id: string, mode: PluginProcessMode): Promise<PluginInfo> {
    const rec = this.#record(id);
    if (rec.descriptor.source !== 'user') throw new AmberError('invalid_input', `The plugin '${id}' ships with Amber; where it runs is set by its manifest.`);
    this.#options.store.setSetting(processKey(id), mode === 'shared' ? 'shared' : null);
    if (rec.conn) await this.restart(id);
    return this.#info(rec);
  }

  #workspace(): string {
    return this.#options.workspace ?? process.cwd();
  }

  #info(rec: PluginRecord): PluginInfo {
    const { manifest, source } = rec.descriptor;
    const now = this.#clock();
    const windowMs = this.#options.crashWindowMs ?? 5 * 60_000;
    return {
      id: manifest.id,
      name: manifest.name,
      version: manifest.version,
      description: manifest.description,
      category: manifest.category,
      source,
      enabled: rec.enabled,
      state: rec.state,
      reason: rec.reason,
      pid: rec.conn?.process.pid ?? null,
      contributions: rec.contributions.map((c) => ({ ...c })),
      needsConfirmation: this.#needsConfirmation(rec),
      process: this.#hostGroup(rec) ? 'shared' : 'own',
      // A lazy plugin that has not run yet already says what it adds: its manifest's declarations.
      declares: CONTRIBUTION_KINDS.filter((kind) => rec.declares.has(kind) || (manifest.contributes ?? []).some((c) => c.kind === kind)),
      recentCrashes: rec.crashes.filter((t) => now - t < windowMs).length,
      dropped: { ...rec.dropped, messages: rec.dropped.messages + (rec.conn?.dropped ?? 0) },
    };
  }
}

/** Resolves when `promise` settles or `ms` have passed, whichever comes first; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.then(() => undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

function newRecord(descriptor: PluginDescriptor): PluginRecord {
  return {
    descriptor,
    enabled: false,
    state: 'registered',
    reason: null,
    conn: null,
    caller: null,
    contributions: [],
    declares: new Set(),
    crashes: [],
    restartTimer: null,
    queue: Promise.resolve(),
    logs: new PluginLogRing(),
    dropped: { messages: 0, logs: 0, events: 0 },
    eventsInFlight: 0,
    sinks: new Map(),
    toolUpdates: new Map(),
    starting: null,
    staticsUp: false,
    pendingEvents: [],
  };
}

/** The setting that records that the user grouped the user plugin `id` into the shared process. */
function processKey(id: string): string {
  return `plugin.${id}.process`;
}

/** The ledger label of a manifest's declaration, apart from the running plugin's own of the same key. */
function staticLabel(kind: ContributionKind, key: string): string {
  return `static:${kind}:${key}`;
}

/** The setting that records when the user confirmed that the user plugin `id` may run. */
function confirmationKey(id: string): string {
  return `plugin.${id}.confirmed`;
}

/** The JSON setting `plugin.<id>.config`: what a plugin reads as its config unless another source is set. */
export function readConfigSetting(store: PluginStateStore, id: string): Record<string, unknown> {
  const raw = store.getSetting(`plugin.${id}.config`);
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Bundled plugins: built beside main's bundle in the Electron build, else the source folders. */
function defaultBundledRoot(dir: string = import.meta.dirname): { bundledRoot: string; builtEntries: boolean } {
  const built = join(dir, 'plugins');
  if (existsSync(built)) return { bundledRoot: built, builtEntries: true };
  return { bundledRoot: resolve(dir, '../../../plugins'), builtEntries: false };
}

function issue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const path = first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${path ? `${path.replace(/^\./, '')}: ` : ''}${first.message}`;
}

function describeRaw(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const r = raw as { kind?: unknown; name?: unknown; id?: unknown };
  const key = typeof r.name === 'string' ? r.name : typeof r.id === 'string' ? r.id : null;
  return typeof r.kind === 'string' ? ` (${r.kind}${key ? ` '${key}'` : ''})` : '';
}
