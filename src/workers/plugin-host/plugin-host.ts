import { AsyncLocalStorage } from 'node:async_hooks';
import { pathToFileURL } from 'node:url';
import type { AllowanceRequest, AllowanceVerdict, PluginCommandResult, WalletState } from '../../shared/plugins/index.ts';
import type { Handshake, HandshakeReply, InitializeResult } from '../../shared/plugins/index.ts';
import {
  type CallConfig,
  type HostApi,
  type HostNoteMethod,
  type LogLevel,
  type PluginApi,
  type PromptBlockContext,
  type PromptBlockRender,
} from '../../shared/plugin-wire/index.ts';
import { PROTOCOL_VERSION } from '../../shared/plugin-wire/index.ts';
import type { ProviderProbeRequest, ProviderProbeResult } from '../../shared/plugins/index.ts';
import { redactSecret } from '../../shared/providers/redact-secret.ts';
import { SentRequests } from '../../shared/sent-requests.ts';
import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { callContext, checkHandshake, checkProbeRequest, isSentRequest, requestBase, sentConfig } from './checked-from-main.ts';
import {
  type AllowanceContribution,
  type CommandContribution,
  type DefinedPlugin,
  type HookContribution,
  isDefinedPlugin,
  type MethodContribution,
  type PanelContribution,
  type PluginContext,
  type PluginContribution,
  type PromptBlockContribution,
  type ProviderContribution,
  type ToolContribution,
  type WalletContribution,
} from '../sdk/define-plugin.ts';
import { EventSubscriptions } from './event-subscriptions.ts';
import { streamProvider } from './provider-stream.ts';
import { ToolUpdateStream } from './tool-update-stream.ts';
import { UpdateThrottle } from './update-throttle.ts';

/** How many log lines may wait for main's answer before further lines are dropped (and counted). */
export const MAX_LOGS_IN_FLIGHT = 64;
type Remote<T> = { [K in keyof T]: T[K] };

/** Sends a one-way HostApi call (a note, see HOST_NOTE_METHODS) to main, in order with the host's other messages. */
export type HostNote = <M extends HostNoteMethod>(method: M, args: Parameters<HostApi[M]>) => void;

/**
 * Runs one plugin inside its own process and answers main's PluginApi. It keeps the functions behind each
 * declaration; main only ever sees data. Nothing thrown by plugin code escapes a `$` method as anything but
 * an error reply main can read (tools: an `isError` output; streams: one `error` event).
 */
export class PluginHost implements PluginApi {
  readonly #host: Remote<HostApi>;
  /** Forms asked for so far: each gets its own request id. */
  #elicitations = 0;
  #hello: Handshake | null = null;
  #plugin: DefinedPlugin | null = null;
  readonly #tools = new Map<string, ToolContribution>();
  /** Tools set at run time (ctx.setTools): the latest set main was sent. */
  #runtimeTools = new Map<string, ToolContribution>();
  readonly #blocks = new Map<string, PromptBlockContribution>();
  readonly #panels = new Map<string, PanelContribution>();
  readonly #providers = new Map<string, ProviderContribution>();
  readonly #wallets = new Map<string, WalletContribution>();
  readonly #allowances = new Map<string, AllowanceContribution>();
  readonly #commands = new Map<string, CommandContribution>();
  readonly #hooks = new Map<string, HookContribution>();
  readonly #methods = new Map<string, MethodContribution>();
  readonly #running = new Map<string, AbortController>();
  readonly #events: EventSubscriptions;
  #logsInFlight = 0;
  #probes = 0;
  /** Log lines and events dropped since the last log line that reached main (that line carries the count). */
  #dropped = 0;
  readonly #throttle = new UpdateThrottle();
  /** The config main sent with the call being served (a provider stream, an allowance check), if it sent one. */
  readonly #callConfig = new AsyncLocalStorage<Record<string, unknown>>();
  /** The last provider requests, which later requests build on (main keeps the same). */
  readonly #sentRequests = new SentRequests();

  readonly #importModule: (url: string) => Promise<unknown>;
  readonly #note: HostNote;

  /**
   * `importModule` loads the plugin's module by URL; a shared host gives each load of the same module a URL of
   * its own, so a plugin switched off and on again in the same process starts from fresh module state.
   * `note` sends provider events one way; by default they are calls of `host`, whose answers nobody awaits.
   */
  constructor(host: Remote<HostApi>, options: { importModule?: (url: string) => Promise<unknown>; note?: HostNote } = {}) {
    this.#host = host;
    this.#events = new EventSubscriptions(host);
    this.#importModule = options.importModule ?? ((url) => import(url));
    this.#note = options.note ?? ((method, args) => void (host[method] as (...a: typeof args) => Promise<void>)(...args).catch(() => {}));
  }

  async $handshake(hello: Handshake): Promise<HandshakeReply> {
    // Checked by hand: the plugin process does not load zod, so it starts fast.
    const parsed = checkHandshake(hello);
    this.#hello = parsed;
    if (parsed.protocolVersion !== PROTOCOL_VERSION) {
      return {
        ok: false,
        protocolVersion: PROTOCOL_VERSION,
        reason: `Amber speaks plugin protocol ${parsed.protocolVersion}, but this plugin host speaks ${PROTOCOL_VERSION}.`,
      };
    }
    const mod = (await this.#importModule(pathToFileURL(parsed.entry).href)) as { default?: unknown };
    if (!isDefinedPlugin(mod.default)) {
      return { ok: false, protocolVersion: PROTOCOL_VERSION, reason: `The module ${parsed.entry} does not default-export a plugin built with definePlugin().` };
    }
    if (mod.default.protocolVersion !== PROTOCOL_VERSION) {
      return {
        ok: false,
        protocolVersion: PROTOCOL_VERSION,
        reason: `The plugin was built for protocol ${mod.default.protocolVersion}; Amber speaks ${PROTOCOL_VERSION}.`,
      };
    }
    this.#plugin = mod.default;
    return { ok: true, protocolVersion: PROTOCOL_VERSION, hasTick: typeof mod.default.tick === 'function' };
  }

  async $initialize(): Promise<InitializeResult> {
    const plugin = this.#plugin;
    const hello = this.#hello;
    if (!plugin || !hello) return { initialized: false, reason: 'initialize came before a successful handshake.' };
    try {
      if ((await plugin.initialize(this.#context(hello))) === false)
        return { initialized: false, reason: 'The plugin declined to start: initialize() returned false.' };
    } catch (e) {
      return { initialized: false, reason: `initialize() threw: ${describe(e)}` };
    }
    let declared: PluginContribution[];
    try {
      declared = await plugin.capabilities();
    } catch (e) {
      return { initialized: false, reason: `capabilities() threw: ${describe(e)}` };
    }
    if (!Array.isArray(declared)) return { initialized: false, reason: 'capabilities() must return an array.' };
    return { initialized: true, capabilities: declared.map((c) => this.#keep(c)) };
  }

  /** Stops what the host itself runs for the plugin (calls in flight, deferred updates); the plugin's own code is told by `$shutdown`. */
  dispose(): void {
    for (const c of this.#running.values()) c.abort();
    this.#running.clear();
    this.#throttle.dispose();
    this.#events.clear();
  }

  async $shutdown(): Promise<void> {
    for (const c of this.#running.values()) c.abort();
    this.#running.clear();
    try {
      await this.#plugin?.shutdown();
    } catch (e) {
      this.#log('error', `shutdown() threw: ${describe(e)}`);
    }
  }

  async $tick(): Promise<void> {
    await this.#plugin?.tick?.();
  }

  async $executeTool(callId: string, name: string, args: unknown, context: unknown = null): Promise<ToolOutput> {
    const tool = this.#tools.get(name) ?? this.#runtimeTools.get(name);
    if (!tool) return errorOutput(`This plugin has no tool named '${name}'.`);
    const controller = new AbortController();
    this.#running.set(callId, controller);
    const updates = new ToolUpdateStream(callId, (id, text) => this.#host.$toolUpdate(id, text));
    try {
      const out = await tool.execute((args ?? {}) as Record<string, unknown>, {
        signal: controller.signal,
        update: updates.update,
        callId,
        ...callContext(context),
      });
      return typeof out === 'string' ? { content: [{ type: 'text', text: out }], isError: false } : out;
    } catch (e) {
      return errorOutput(`The tool '${name}' failed: ${describe(e)}`);
    } finally {
      this.#running.delete(callId);
      // Every update is on the pipe before the result: the card never shows progress after the end.
      await updates.close();
    }
  }

  async $cancel(callId: string): Promise<void> {
    this.#running.get(callId)?.abort();
  }

  async $renderBlock(id: string, context: PromptBlockContext, call?: CallConfig): Promise<PromptBlockRender> {
    const block = this.#blocks.get(id);
    if (!block) throw new Error(`This plugin has no prompt block '${id}'.`);
    const config = sentConfig(call);
    if (config) return await this.#callConfig.run(config, () => block.render(context));
    return await block.render(context);
  }

  async $streamProvider(streamId: string, providerId: string, sent: ProviderRequest, call?: CallConfig): Promise<void> {
    // Before anything is awaited: requests are recorded in the order they came, as main recorded them.
    // Throws MISSING_MESSAGES (main then sends the request whole) when the messages it builds on are not here.
    const request = isSentRequest(sent) ? ({ ...sent, ...this.#sentRequests.decode(streamId, sent, requestBase(call)) } as ProviderRequest) : sent;
    const config = sentConfig(call);
    if (config) return await this.#callConfig.run(config, () => this.#stream(streamId, providerId, request));
    return await this.#stream(streamId, providerId, request);
  }

  async #stream(streamId: string, providerId: string, request: ProviderRequest): Promise<void> {
    const controller = new AbortController();
    this.#running.set(streamId, controller);
    try {
      // Events go to main one way (notes): nothing here waits for main, and main is not woken to answer.
      await streamProvider(this.#providers.get(providerId), providerId, request, controller.signal, (events) =>
        this.#note('$providerEvent', [streamId, events]),
      );
    } finally {
      this.#running.delete(streamId);
    }
  }

  async $refreshWallet(id: string): Promise<WalletState> {
    const wallet = this.#wallets.get(id);
    if (!wallet) throw new Error(`This plugin has no wallet '${id}'.`);
    return await wallet.refresh();
  }

  async $checkAllowance(id: string, request: AllowanceRequest, call?: CallConfig): Promise<AllowanceVerdict> {
    const allowance = this.#allowances.get(id);
    if (!allowance) throw new Error(`This plugin has no allowance '${id}'.`);
    const config = sentConfig(call);
    if (config) return await this.#callConfig.run(config, () => allowance.check(request));
    return await allowance.check(request);
  }

  async $runCommand(path: string[], args: string[]): Promise<PluginCommandResult> {
    const command = this.#commands.get(path.join(' '));
    if (!command) return { output: `This plugin has no command '${path.join(' ')}'.`, isError: true };
    try {
      const out = await command.run(args);
      return typeof out === 'string' ? { output: out, isError: false } : out;
    } catch (e) {
      return { output: `The command '${path.join(' ')}' failed: ${describe(e)}`, isError: true };
    }
  }

  async $callMethod(name: string, args: unknown): Promise<unknown> {
    const method = this.#methods.get(name);
    if (!method) throw new Error(`This plugin has no method '${name}'.`);
    return (await method.call(args)) ?? null;
  }

  async $panelAction(panelId: string, actionId: string): Promise<void> {
    const panel = this.#panels.get(panelId);
    if (!panel) throw new Error(`This plugin has no panel '${panelId}'.`);
    await panel.onAction?.(actionId);
  }

  async $event(topic: string, payload: unknown): Promise<void> {
    this.#events.deliver(topic, payload, (e) => this.#log('error', `A listener for '${topic}' threw: ${describe(e)}`));
  }

  /** A hook's answer as the plugin gave it (null for no change); main checks its shape. Throws what the hook threw. */
  async $runHook(point: string, payload: unknown): Promise<unknown> {
    const hook = this.#hooks.get(point);
    if (!hook) throw new Error(`This plugin has no hook at '${point}'.`);
    return ((await (hook.run as (event: unknown) => unknown)(payload)) ?? null) as unknown;
  }

  async $probe(request: ProviderProbeRequest, timeoutMs: number): Promise<ProviderProbeResult> {
    const probe = this.#plugin?.probe;
    if (typeof probe !== 'function') throw new Error('This plugin cannot test a connection: it has no probe().');
    const checked = checkProbeRequest(request);
    const controller = new AbortController();
    const id = `probe:${++this.#probes}`;
    // Shutdown aborts it like a running tool; the deadline aborts it with a TimeoutError reason.
    this.#running.set(id, controller);
    const ms = typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 10_000;
    try {
      return await probe.call(this.#plugin, checked, AbortSignal.any([controller.signal, AbortSignal.timeout(ms)]));
    } catch (e) {
      // The SDK says probe() must not throw; one that does still answers with a sentence, without the key.
      return { ok: false, models: [], message: redactSecret(`The connection test failed: ${describe(e)}`, checked.apiKey) };
    } finally {
      this.#running.delete(id);
    }
  }

  /** Log lines go to main with at most MAX_LOGS_IN_FLIGHT unanswered; beyond that they are dropped and counted. */
  log(level: LogLevel, message: string): void {
    this.#log(level, message);
  }

  #log(level: LogLevel, message: string): void {
    if (this.#logsInFlight >= MAX_LOGS_IN_FLIGHT || !this.#throttle.spend()) {
      this.#dropped++;
      return;
    }
    const dropped = this.#dropped;
    this.#dropped = 0;
    this.#logsInFlight++;
    void this.#host
      .$log(level, message.length > 8192 ? `${message.slice(0, 8192)}…` : message, dropped || undefined)
      .catch(() => {})
      .finally(() => this.#logsInFlight--);
  }

  #context(hello: Handshake): PluginContext {
    const host = this.#host;
    return {
      pluginId: hello.pluginId,
      workspace: hello.workspace,
      settings: Object.freeze({ ...hello.settings }),
      // Inside a call that came with the config, that config (read by main when it made the call); else main's now.
      config: async (key) => {
        const sent = this.#callConfig.getStore();
        return (sent ? structuredClone(sent[key]) : (await host.$getConfig())[key]) as never;
      },
      configAll: async () => {
        const sent = this.#callConfig.getStore();
        return sent ? structuredClone(sent) : await host.$getConfig();
      },
      events: {
        on: (topic, listener, options) => this.#events.on(topic, listener, options),
        emit: (topic, payload) => {
          if (this.#throttle.spend()) void host.$emit(topic, payload).catch(() => {});
          else this.#dropped++;
        },
      },
      // One way (notes): nothing waits for main's answer, and main's answer does not wake this process.
      updateStatus: (segment) => this.#throttle.update(`status:${segment.id}`, () => this.#note('$updateStatus', [segment])),
      updatePanel: (panel) => this.#throttle.update(`panel:${panel.id}`, () => this.#note('$updatePanel', [panel])),
      updateWallet: (id, state) => this.#throttle.update(`wallet:${id}`, () => this.#note('$updateWallet', [id, state])),
      elicit: async (request, signal) => {
        const requestId = `e${((this.#elicitations = this.#elicitations + 1)).toString(36)}`;
        if (signal?.aborted) return { action: 'cancel' };
        const withdraw = () => void host.$elicitCancel(requestId).catch(() => {});
        signal?.addEventListener('abort', withdraw, { once: true });
        try {
          return await host.$elicit({ ...request, requestId });
        } finally {
          signal?.removeEventListener('abort', withdraw);
        }
      },
      setTools: async (tools) => {
        if (!Array.isArray(tools)) throw new Error('setTools takes an array of tools.');
        // Calls already running keep their function; new calls find the new set. Main may call a new tool
        // before its answer arrives, so the set is in place here first, and put back if main refuses it.
        const previous = this.#runtimeTools;
        this.#runtimeTools = new Map(tools.map((t) => [t.name, t]));
        try {
          await host.$setTools(tools.map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v !== 'function'))) as never);
        } catch (e) {
          this.#runtimeTools = previous;
          throw e;
        }
      },
      log: {
        debug: (m) => this.#log('debug', m),
        info: (m) => this.#log('info', m),
        warn: (m) => this.#log('warn', m),
        error: (m) => this.#log('error', m),
      },
    };
  }

  /** Keeps the behaviour of a declaration here and returns its data for main. */
  #keep(c: PluginContribution): unknown {
    if (typeof c !== 'object' || c === null) return c;
    if ('declined' in c) return c;
    switch (c.kind) {
      case 'tool':
        this.#tools.set(c.name, c);
        break;
      case 'promptBlock':
        this.#blocks.set(c.id, c);
        break;
      case 'panel':
        this.#panels.set(c.id, c);
        break;
      case 'provider':
        this.#providers.set(c.id, c);
        break;
      case 'wallet':
        this.#wallets.set(c.id, c);
        break;
      case 'allowance':
        this.#allowances.set(c.id, c);
        break;
      case 'command':
        if (Array.isArray(c.path)) this.#commands.set(c.path.join(' '), c);
        break;
      case 'hook':
        this.#hooks.set(c.point, c);
        break;
      case 'method':
        this.#methods.set(c.name, c);
        break;
      default:
        break;
    }
    return Object.fromEntries(Object.entries(c).filter(([, v]) => typeof v !== 'function'));
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function errorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}
