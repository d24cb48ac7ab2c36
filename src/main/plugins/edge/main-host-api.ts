import type { Disposable } from '../../../shared/disposable.ts';
import { PanelViewModel, StatusSegment, WalletState } from '../../../shared/plugins/index.ts';
import { EventFilter, SetToolsArgs } from '../../../shared/plugins/index.ts';
import type { ToolDeclaration } from '../../../shared/plugins/index.ts';
import { LogLevel } from '../../../shared/plugins/index.ts';
import { type HostApi, MAX_TOOL_STREAM_CHARS, MAX_TOOL_UPDATE_CHARS } from '../../../shared/plugins/index.ts';
import type { ProviderEvent } from '../../../shared/providers/index.ts';
import { type ElicitationAnswer, ElicitationRequest } from '../../../shared/elicitation/index.ts';
import type { StreamSinks, ToolUpdateSinks } from '../runtime/contribution-installer.ts';
import type { PluginEventBus } from '../runtime/plugin-event-bus.ts';
import type { PluginRegistries } from '../registries/plugin-registries.ts';

/** Who puts a plugin's form to the user (main's ElicitationBroker). */
export interface ElicitationAsker {
  ask(pluginId: string, request: ElicitationRequest, call: { sessionId?: string; toolName?: string }): Promise<ElicitationAnswer>;
  cancel(pluginId: string, requestId: string): void;
  /** Every form the plugin still waits on is withdrawn (answered as cancelled): it stopped. */
  withdrawAll(pluginId: string): void;
}

export interface MainHostApiDeps {
  pluginId: string;
  registries: PluginRegistries;
  bus: PluginEventBus;
  sinks: StreamSinks;
  /** Where `$toolUpdate` calls of this plugin's running tool calls go, by call id. */
  toolUpdates?: ToolUpdateSinks;
  /** Read at every `$getConfig`: config attached or changed after start is what the plugin sees. */
  config(): Record<string, unknown>;
  /**
   * Records a subscription so that deactivation removes it with the plugin's other contributions. Returns
   * false, having disposed it at once, when the plugin is already being let go of.
   */
  own(label: string, disposable: Disposable): boolean;
  /** Delivers an event to the plugin (bounded by the caller). */
  deliver(topic: string, payload: unknown): void;
  log(level: LogLevel, message: string, dropped: number): void;
  /** Replaces the plugin's runtime tools (see HostApi.$setTools); throws a sentence when the set is refused. */
  setTools?(tools: ToolDeclaration[]): void;
  /** Puts the plugin's forms to the user; absent, every form is declined (no one to ask). */
  elicitations?: ElicitationAsker;
}

const Topic = StatusSegment.shape.id;

/** Main's HostApi for one plugin process. Every argument is checked on arrival; errors go back to the plugin. */
export function createMainHostApi(deps: MainHostApiDeps): HostApi {
  const subscriptions = new Map<string, { filter: string; disposable: Disposable }>();
  // One ledger entry per topic for the plugin's life, however often it subscribes and unsubscribes.
  const owned = new Set<string>();
  let formsOwned = false;
  const drop = (topic: string) => {
    subscriptions.get(topic)?.disposable.dispose();
    subscriptions.delete(topic);
  };
  return {
    async $getConfig() {
      return structuredClone(deps.config());
    },
    async $emit(topic, payload) {
      deps.bus.emit(Topic.parse(topic), payload, deps.pluginId);
    },
    async $subscribe(topic, filter) {
      const t = Topic.parse(topic);
      const types = filter ? new Set(EventFilter.parse(filter).types) : null;
      const key = types ? [...types].sort().join('\u0000') : '*';
      if (subscriptions.get(t)?.filter === key) return;
      subscriptions.get(t)?.disposable.dispose();
      // Events the plugin did not ask for are never sent to it (nor counted against what it may have in flight).
      const wanted = (payload: unknown) =>
        types === null || (typeof payload === 'object' && payload !== null && types.has(String((payload as { type?: unknown }).type)));
      subscriptions.set(t, {
        filter: key,
        disposable: deps.bus.on(
          t,
          (payload) => {
            if (wanted(payload)) deps.deliver(t, payload);
          },
          deps.pluginId,
        ),
      });
      if (!owned.has(t) && deps.own(`event:${t}`, { dispose: () => drop(t) })) owned.add(t);
    },
    async $unsubscribe(topic) {
      drop(String(topic));
    },
    async $updateStatus(segment) {
      deps.registries.statusSegments.update(deps.pluginId, StatusSegment.parse(segment));
    },
    async $updatePanel(panel) {
      deps.registries.panels.update(deps.pluginId, PanelViewModel.parse(panel));
    },
    async $updateWallet(id, state) {
      deps.registries.wallets.update(deps.pluginId, String(id), WalletState.parse(state));
    },
    async $log(level, message, dropped) {
      deps.log(LogLevel.catch('info').parse(level), String(message).slice(0, 8192), typeof dropped === 'number' ? dropped : 0);
    },
    async $providerEvent(streamId, events) {
      const sink = deps.sinks.get(String(streamId));
      if (!sink || !Array.isArray(events)) return;
      for (const event of events as unknown[]) {
        if (typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string') sink(event as ProviderEvent);
      }
    },
    async $toolUpdate(callId, text) {
      if (typeof callId !== 'string' || typeof text !== 'string') throw new Error('A tool update is a call id and a text.');
      if (text.length > MAX_TOOL_UPDATE_CHARS)
        throw new Error(`A tool update may carry at most ${MAX_TOOL_UPDATE_CHARS} characters; send longer output in parts.`);
      // Only this plugin's own calls are in its map; an update for a call that has ended is dropped, and so
      // is whatever goes past the per-call total (a plugin that skips the SDK's own cap cannot flood the UI).
      const sink = deps.toolUpdates?.get(callId);
      if (!sink || sink.streamed >= MAX_TOOL_STREAM_CHARS) return;
      const part = text.slice(0, MAX_TOOL_STREAM_CHARS - sink.streamed);
      sink.streamed += part.length;
      sink.deliver(part);
    },
    async $elicit(raw) {
      const parsed = ElicitationRequest.safeParse(raw);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new Error(
          `A form to ask the user was refused${first?.path.length ? ` at ${first.path.join('.')}` : ''}: ${first?.message ?? 'it is malformed'}.`,
        );
      }
      const request = parsed.data;
      if (!deps.elicitations) return { action: 'decline' };
      // Only this plugin's own running calls are in its map: a form cannot be put on another's tool card.
      const call = request.callId === undefined ? null : deps.toolUpdates?.get(request.callId);
      if (call === undefined) throw new Error('A form to ask the user was refused: it names a tool call of this plugin that is not running.');
      // Forms still open when the plugin stops are withdrawn with its other contributions.
      if (!formsOwned) formsOwned = deps.own('elicitations', { dispose: () => deps.elicitations?.withdrawAll(deps.pluginId) });
      if (!formsOwned) return { action: 'cancel' };
      return await deps.elicitations.ask(deps.pluginId, request, {
        ...(call?.sessionId ? { sessionId: call.sessionId } : {}),
        ...(call?.tool ? { toolName: call.tool } : {}),
      });
    },
    async $elicitCancel(requestId) {
      deps.elicitations?.cancel(deps.pluginId, String(requestId));
    },
    async $setTools(tools) {
      if (!deps.setTools) throw new Error('This host does not accept tools set at run time.');
      deps.setTools(SetToolsArgs.parse([tools])[0]);
    },
  };
}
