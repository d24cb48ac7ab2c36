import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Emitter, type Event } from '../../../shared/emitter.ts';
import {
  CONTRIBUTION_KINDS,
  type LogLevel,
  type PluginConfigSchema,
  type ProviderProbeRequest,
  type ProviderProbeResult,
  type ToolDeclaration,
} from '../../../shared/plugins/index.ts';
import { PLUGIN_SETTING_ID } from '../../../shared/settings/index.ts';
import { AmberError } from '../../errors.ts';
import { SettingsService, type SettingsStore } from '../../settings/index.ts';
import { BUNDLED_PLUGINS } from '../bundled-plugins.ts';
import type { ElicitationAsker } from '../edge/main-host-api.ts';
import { createForkLauncher } from '../launchers/fork-launcher.ts';
import type { PluginLauncher } from '../launchers/plugin-launcher.ts';
import { createSharedHostLauncher, type SharedHostLauncher } from '../launchers/shared-host-launcher.ts';
import { createPluginRegistries, type PluginRegistries } from '../registries/plugin-registries.ts';
import { type DiscoveryProblem, discoverPlugins, type PluginDescriptor } from './plugin-discovery.ts';
import { PluginEventBus } from './plugin-event-bus.ts';
import type { PluginInfo, PluginProcessMode } from './plugin-info.ts';
import { PluginLedger } from './plugin-ledger.ts';
import type { PluginLogLine } from './plugin-log-ring.ts';
import { newPluginRecord, type PluginRecord } from './plugin-record.ts';
import { PluginSupervisor, type SupervisorContext } from './plugin-supervisor.ts';
import { probePlugin } from './probe-plugin.ts';

export type { ContributionStatus, PluginInfo, PluginProcessMode, PluginState } from './plugin-info.ts';

/**
 * Where on/off state is kept (SessionStore has it), and the settings table the default SettingsService
 * reads when none is given.
 */
export interface PluginStateStore extends SettingsStore {
  pluginStates(): Map<string, boolean>;
  setPluginState(pluginId: string, enabled: boolean): void;
}

export interface SetStateOptions {
  /** The user has read what a user plugin may do and agrees to run it; remembered, so asked only once. */
  confirm?: boolean;
}

export type PluginConfigSource = (pluginId: string) => Record<string, unknown>;

/** The shared host bundled plugins join unless their manifest asks for a process of their own. */
export const BUNDLED_HOST_GROUP = 'bundled';
/** The shared host user plugins join when the user groups them (never the bundled plugins' host). */
export const USER_HOST_GROUP = 'user';

export interface PluginServiceOptions {
  store: PluginStateStore;
  /**
   * Where the user's confirmations, process grouping and (by default) each plugin's config are kept.
   * Default: a SettingsService over `store`.
   */
  settings?: SettingsService;
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
  /** Events main holds for one plugin, not yet sent (or, for an idle-watched one, not yet answered); beyond, events to it are dropped. */
  maxEventsInFlight?: number;
  clock?: () => number;
  onLog?: (pluginId: string, line: PluginLogLine) => void;
  /** Who puts a plugin's forms (an MCP server's elicitation) to the user; absent, every form is declined. */
  elicitations?: ElicitationAsker;
}

/**
 * The plugin catalog: what plugins there are (discovery), which are on (one write path, persisted, live),
 * the user's consent and grouping, and what the UI shows of each. Each plugin's process is run by its
 * PluginSupervisor; operations on one plugin run one at a time, in order, different plugins in parallel.
 * Lifecycle: Registered → Active | Failed | Incompatible; Active → Deactivated.
 */
export class PluginService {
  readonly registries: PluginRegistries = createPluginRegistries();
  readonly events = new PluginEventBus();
  readonly ledger = new PluginLedger();
  readonly problems: DiscoveryProblem[] = [];
  readonly #supervisors = new Map<string, PluginSupervisor>();
  readonly #options: PluginServiceOptions;
  readonly #settings: SettingsService;
  readonly #context: SupervisorContext;
  // A listener's failure is its own.
  readonly #changes = new Emitter<PluginInfo>();
  /** Every state change, or change of what a plugin contributes (also emitted on `events` as `plugin.stateChanged`). */
  readonly onDidChange: Event<PluginInfo> = this.#changes.event;
  #disposed = false;
  #configurations: ReadonlyMap<string, PluginConfigSchema> | null = null;

  constructor(options: PluginServiceOptions) {
    this.#options = options;
    const settings = (this.#settings = options.settings ?? new SettingsService({ store: options.store }));
    const clock = options.clock ?? Date.now;
    const launcher = options.launcher ?? createForkLauncher();
    const config = options.config ?? ((id: string) => readConfigSetting(settings, id));
    this.#context = {
      registries: this.registries,
      events: this.events,
      ledger: this.ledger,
      timeouts: { callMs: options.callTimeoutMs ?? 10_000, toolMs: options.toolTimeoutMs ?? 300_000, streamIdleMs: options.streamIdleTimeoutMs ?? 120_000 },
      limits: {
        initializeTimeoutMs: options.initializeTimeoutMs ?? 10_000,
        shutdownGraceMs: options.shutdownGraceMs ?? 2000,
        crash: { limit: options.crashLimit ?? 3, windowMs: options.crashWindowMs ?? 5 * 60_000, backoffMs: options.restartBackoffMs ?? 1000 },
        tickIntervalMs: options.tickIntervalMs ?? 5000,
        inboundPerSecond: options.inboundPerSecond,
        maxEventsInFlight: options.maxEventsInFlight ?? 256,
      },
      launcher,
      sharedLauncher: options.sharedLauncher ?? createSharedHostLauncher(launcher),
      clock,
      config,
      disposed: () => this.#disposed,
      hostGroup: (rec) => this.#hostGroup(rec),
      workspace: () => options.workspace ?? process.cwd(),
      notify: (rec) => this.#notify(rec),
      log: (rec, level, message) => this.#log(rec, level, message),
      ...(options.elicitations ? { elicitations: options.elicitations } : {}),
    };
    let descriptors = options.plugins;
    if (!descriptors) {
      const found = this.#discover();
      descriptors = found.plugins;
      this.problems.push(...found.problems);
    }
    for (const descriptor of descriptors) this.#add(descriptor);
    // The SDK does not wait on emits, so the plugin's log is where its author sees a refused one.
    this.events.onDidRefuse(({ from, message }) => {
      const sup = this.#supervisors.get(from);
      if (sup) this.#log(sup.rec, 'warn', message);
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
    const added: PluginSupervisor[] = [];
    for (const descriptor of found.plugins) {
      if (this.#supervisors.has(descriptor.manifest.id)) continue;
      const sup = this.#add(descriptor);
      sup.rec.enabled = this.#initiallyOn(descriptor, saved);
      added.push(sup);
    }
    await Promise.all(added.map((sup) => (sup.rec.enabled ? sup.serial(() => sup.bringUp()) : (sup.setState('registered', null), Promise.resolve()))));
    return added.map((sup) => sup.rec.descriptor.manifest.id);
  }

  #add(descriptor: PluginDescriptor): PluginSupervisor {
    const sup = new PluginSupervisor(newPluginRecord(descriptor), this.#context);
    this.#supervisors.set(descriptor.manifest.id, sup);
    this.#configurations = null;
    return sup;
  }

  /** On before anyone switches it: a bundled plugin's manifest decides; a user plugin's never does. */
  #initiallyOn(descriptor: PluginDescriptor, saved: Map<string, boolean>): boolean {
    const id = descriptor.manifest.id;
    if (descriptor.source === 'user') return saved.get(id) === true && this.#settings.get('plugin.confirmed', id) !== null;
    return saved.get(id) ?? descriptor.manifest.enabledByDefault ?? true;
  }

  #needsConfirmation(rec: PluginRecord): boolean {
    return rec.descriptor.source === 'user' && this.#settings.get('plugin.confirmed', rec.descriptor.manifest.id) === null;
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
      [...this.#supervisors.values()].map((sup) => {
        sup.rec.enabled = this.#initiallyOn(sup.rec.descriptor, saved);
        return sup.rec.enabled ? sup.serial(() => sup.bringUp()) : Promise.resolve();
      }),
    );
  }

  list(): PluginInfo[] {
    return [...this.#supervisors.values()].map((sup) => this.#info(sup.rec));
  }

  get(id: string): PluginInfo {
    return this.#info(this.#supervisor(id).rec);
  }

  logs(id: string): PluginLogLine[] {
    return this.#supervisor(id).rec.logs.lines();
  }

  /**
   * The one write path for on/off: persists, then activates or deactivates live. Enabling a plugin that
   * crashed too often clears its crash history. Resolves with the plugin's state once settled. Switching
   * on a user plugin the user never confirmed throws (`denied`) unless `confirm` is given, which is kept.
   */
  async setState(id: string, on: boolean, options: SetStateOptions = {}): Promise<PluginInfo> {
    const sup = this.#supervisor(id);
    const rec = sup.rec;
    if (this.#disposed) throw new AmberError('unavailable', 'The plugin runtime is shutting down.');
    if (on && this.#needsConfirmation(rec)) {
      if (!options.confirm) {
        throw new AmberError(
          'denied',
          `${rec.descriptor.manifest.name} is a plugin you added, and it has not been switched on before: turn it on in Settings → Plugins, which shows what it will be able to do and asks you to confirm.`,
        );
      }
      this.#settings.set('plugin.confirmed', id, new Date(this.#context.clock()).toISOString());
    }
    this.#options.store.setPluginState(id, on);
    rec.enabled = on;
    sup.clearRestart();
    if (on) rec.crashes = [];
    await sup.serial(async () => {
      if (on && rec.state !== 'active' && rec.state !== 'idle' && rec.enabled) await sup.bringUp();
      if (!on && !rec.enabled && (rec.conn || rec.staticsUp)) await sup.deactivate('deactivated', null);
      if (!on && (rec.state === 'failed' || rec.state === 'incompatible')) sup.setState('deactivated', null);
    });
    return this.#info(rec);
  }

  /**
   * The window shows the panel `panelId`: a lazy plugin whose manifest lists `onPanel` (or `onPanel:<id>`)
   * for it starts now, so its panel shows live content rather than its manifest's. Resolves true when it was
   * started for this (or is running); never throws — a start that fails leaves the plugin Failed, as always.
   */
  async panelOpened(panelId: string): Promise<boolean> {
    const holder = this.registries.panels.get(panelId);
    const sup = holder ? this.#supervisors.get(holder.pluginId) : undefined;
    if (!sup) return false;
    const rec = sup.rec;
    if (rec.state === 'active') return true;
    const events = rec.descriptor.manifest.activationEvents ?? [];
    if (rec.state !== 'idle' || !(events.includes('onPanel') || events.includes(`onPanel:${panelId}`))) return false;
    try {
      await sup.started();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The connection test of a provider plugin (its `probe`): lists the models of the endpoint in `request`.
   * Starts nothing: a plugin that is off, Failed or has no probe makes it throw (`unavailable`) with a
   * sentence saying what to do; one still activating is waited for, up to `timeoutMs`. The plugin gets
   * `timeoutMs` for the test itself. The answer is checked against ProviderProbeResult and the key removed
   * from it here too, whatever the plugin did.
   */
  async probe(id: string, request: ProviderProbeRequest, options: { timeoutMs?: number; startWaitMs?: number } = {}): Promise<ProviderProbeResult> {
    return probePlugin(this.#supervisor(id), request, options, this.#context);
  }

  /** The settings the plugin's manifest declares (its `configuration`), or null when it declares none. */
  configuration(id: string): PluginConfigSchema | null {
    return this.#supervisor(id).rec.descriptor.manifest.configuration ?? null;
  }

  /** The tools the plugin's manifest declares (`contributes`): known whether or not it runs, so a list can name them while it is off. */
  manifestTools(id: string): ToolDeclaration[] {
    return (this.#supervisor(id).rec.descriptor.manifest.contributes ?? []).filter((c): c is ToolDeclaration => c.kind === 'tool');
  }

  /**
   * Every plugin's declared settings by id (the ones that declare any): the same map until a plugin joins the
   * catalog, so what is derived from it (which settings are secret) need not be derived at every config read.
   */
  configurations(): ReadonlyMap<string, PluginConfigSchema> {
    this.#configurations ??= new Map(
      [...this.#supervisors].flatMap(([id, sup]) => {
        const schema = sup.rec.descriptor.manifest.configuration;
        return schema ? [[id, schema] as const] : [];
      }),
    );
    return this.#configurations;
  }

  /**
   * Stops and starts again a plugin that is on, so that what it declares follows settings it reads only
   * at start (the wallet declares a wallet per account with a key). A plugin that is off stays off.
   */
  async restart(id: string): Promise<PluginInfo> {
    const sup = this.#supervisor(id);
    const rec = sup.rec;
    if (this.#disposed) throw new AmberError('unavailable', 'The plugin runtime is shutting down.');
    sup.clearRestart();
    await sup.serial(async () => {
      if (!rec.enabled) return;
      if (rec.conn || rec.staticsUp) await sup.deactivate('deactivated', null);
      if (rec.enabled && !this.#disposed) await sup.bringUp();
    });
    return this.#info(rec);
  }

  /**
   * Where a user plugin runs: its own process (the default) or the shared process of the user's grouped
   * plugins. Remembered; a running plugin restarts there. Bundled plugins' placement is their manifest's.
   */
  async setProcess(id: string, mode: PluginProcessMode): Promise<PluginInfo> {
    const rec = this.#supervisor(id).rec;
    if (rec.descriptor.source !== 'user') throw new AmberError('invalid_input', `The plugin '${id}' ships with Amber; where it runs is set by its manifest.`);
    this.#settings.set('plugin.process', id, mode === 'shared' ? 'shared' : null);
    if (rec.conn) await this.restart(id);
    return this.#info(rec);
  }

  /** Stops every plugin (shutdown, grace, then kill) and resolves once no plugin process is left. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const supervisors = [...this.#supervisors.values()];
    for (const sup of supervisors) sup.clearRestart();
    // A plugin still activating is cut short: closing its connection fails the pending handshake at once.
    for (const { rec } of supervisors) if (rec.state === 'activating') rec.conn?.close(new AmberError('unavailable', 'The app is shutting down.'));
    await Promise.all(
      supervisors.map((sup) => sup.serial(() => (sup.rec.conn || sup.rec.staticsUp ? sup.deactivate('deactivated', null) : Promise.resolve()))),
    );
  }

  /** Tells the listeners what the plugin looks like now (its state, or what it contributes, changed). */
  #notify(rec: PluginRecord): PluginInfo {
    const info = this.#info(rec);
    this.#changes.fire(info);
    return info;
  }

  #log(rec: PluginRecord, level: LogLevel, message: string): void {
    const line = rec.logs.push(this.#context.clock(), level, message);
    this.#options.onLog?.(rec.descriptor.manifest.id, line);
  }

  #supervisor(id: string): PluginSupervisor {
    const sup = this.#supervisors.get(id);
    if (!sup) throw new AmberError('not_found', `There is no plugin '${id}'.`);
    return sup;
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
    return this.#settings.get('plugin.process', manifest.id) === 'shared' ? USER_HOST_GROUP : null;
  }

  #info(rec: PluginRecord): PluginInfo {
    const { manifest, source } = rec.descriptor;
    const now = this.#context.clock();
    const windowMs = this.#context.limits.crash.windowMs;
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

/**
 * The setting `plugin.<id>.config`: what a plugin reads as its config unless another source is set. An id
 * no plugin can have (not `[a-z0-9_]`) has nothing stored.
 */
export function readConfigSetting(settings: SettingsService, id: string): Record<string, unknown> {
  return PLUGIN_SETTING_ID.test(id) ? settings.get('plugin.config', id) : {};
}

/** Bundled plugins: built beside main's bundle in the Electron build, else the source folders. */
function defaultBundledRoot(dir: string = import.meta.dirname): { bundledRoot: string; builtEntries: boolean } {
  const built = join(dir, 'plugins');
  if (existsSync(built)) return { bundledRoot: built, builtEntries: true };
  return { bundledRoot: resolve(dir, '../../../plugins'), builtEntries: false };
}
