import type { Disposable } from '../../../shared/disposable.ts';
import { MAX_BLOCK_SOURCE_LABEL_CHARS, MAX_BLOCK_SOURCES, MAX_PROMPT_BLOCK_CHARS, RenderedBlock } from '../../../shared/plugins/index.ts';
import { type AllowanceRequest, AllowanceVerdict, PluginCommandResult, type Contribution, WalletState } from '../../../shared/plugins/index.ts';
import type { AssistantMessage } from '../../../shared/sessions/index.ts';
import type { AbortSignalLike, ProviderErrorKind, ProviderEvent, ProviderRequest, StreamFn } from '../../../shared/providers/index.ts';
import type { ToolOutput } from '../../../shared/tools/index.ts';
import type { ToolCallContext } from '../../../shared/tools/index.ts';
import { MISSING_MESSAGES, type SentRequest, SentRequests } from '../../../shared/sent-requests.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import type { PluginConnection } from '../edge/plugin-connection.ts';
import { HookRegistry } from '../registries/hook-registry.ts';
import { MethodRegistry } from '../registries/method-registry.ts';
import type { PluginRegistries } from '../registries/plugin-registries.ts';

export interface CallTimeouts {
  callMs: number;
  toolMs: number;
  streamIdleMs: number;
}

/**
 * What a contribution calls into its plugin through: the plugin's connection, or for a declaration of its
 * manifest installed before it runs, a caller that starts the plugin first. `activity` is the running
 * connection's (see PluginConnection.activity); a caller without one is asked every time.
 */
export type PluginCaller = Pick<PluginConnection, 'call' | 'config'> & { readonly activity?: number };

/**
 * How long an allowance's answer that it limits nothing (`inactive`) stands without asking its plugin again,
 * unless main calls that plugin for anything else meanwhile (a command, a panel action: they may set a limit)
 * or it restarts (a new config). A run's model calls then do not wake a plugin with nothing to decide.
 */
export const INACTIVE_ALLOWANCE_HOLD_MS = 2000;

/** Where `$providerEvent` calls from one plugin process are routed, by stream id. */
export type StreamSinks = Map<string, (event: ProviderEvent) => void>;
/** Where `$toolUpdate` calls from one plugin process are routed, by call id, while the call runs. */
export type ToolUpdateSinks = Map<string, { deliver: (text: string) => void; streamed: number; tool?: string; sessionId?: string }>;

let nextId = 0;
const newId = (prefix: string) => `${prefix}${(++nextId).toString(36)}`;

/**
 * Installs one validated declaration into its registry, backed by calls into the plugin's process.
 * Throws when the registry refuses it (e.g. a name another plugin holds): the plugin is then Failed.
 */
export function installContribution(
  registries: PluginRegistries,
  pluginId: string,
  conn: PluginCaller,
  decl: Contribution,
  timeouts: CallTimeouts,
  sinks: StreamSinks,
  toolUpdates: ToolUpdateSinks = new Map(),
): Disposable {
  switch (decl.kind) {
    case 'tool': {
      const { kind: _kind, ...spec } = decl;
      return registries.tools.register(pluginId, spec.name, {
        spec,
        execute: (args, signal, context, onUpdate) =>
          executeTool(conn, spec.name, args, signal, timeouts, context, onUpdate && { sinks: toolUpdates, onUpdate }),
      });
    }
    case 'promptBlock':
      return registries.promptBlocks.register(pluginId, decl.id, {
        id: decl.id,
        position: decl.position,
        priority: decl.priority,
        ...(decl.cache ? { cache: decl.cache } : {}),
        render: async (context) => {
          // The config goes with the call (a block renders before every model call): the plugin need not ask for it.
          const answer: unknown = await conn.call('$renderBlock', [decl.id, context, { config: await conn.config() }], timeouts.callMs);
          const text = typeof answer === 'object' && answer !== null && 'text' in answer ? answer.text : answer;
          if (typeof text !== 'string') throw new Error(`The prompt block '${decl.id}' rendered something that is not text.`);
          if (text.length > MAX_PROMPT_BLOCK_CHARS) {
            throw new Error(
              `The prompt block '${decl.id}' rendered ${text.length.toLocaleString('en')} characters; a block is at most ${MAX_PROMPT_BLOCK_CHARS.toLocaleString('en')}, so it was left out.`,
            );
          }
          const parsed = RenderedBlock.safeParse(answer);
          if (!parsed.success) {
            throw new Error(
              `The prompt block '${decl.id}' named what it drew on in a shape Amber does not take (at most ${MAX_BLOCK_SOURCES} sources of { id, label }, labels at most ${MAX_BLOCK_SOURCE_LABEL_CHARS} characters), so it was left out.`,
            );
          }
          return parsed.data;
        },
      });
    case 'statusSegment': {
      const { kind: _kind, ...segment } = decl;
      return registries.statusSegments.register(pluginId, decl.id, segment);
    }
    case 'panel': {
      const { kind: _kind, ...view } = decl;
      return registries.panels.register(pluginId, decl.id, {
        view,
        action: (actionId) => conn.call('$panelAction', [decl.id, actionId], timeouts.callMs),
      });
    }
    case 'provider':
      return registries.providers.register(pluginId, decl.id, {
        id: decl.id,
        flavor: decl.flavor,
        presets: decl.presets,
        models: decl.models,
        stream: providerStream(conn, decl.id, timeouts, sinks),
      });
    case 'wallet':
      return registries.wallets.register(pluginId, decl.id, {
        id: decl.id,
        provider: decl.provider,
        state: { balance: decl.balance, currency: decl.currency },
        refresh: async () => WalletState.parse(await conn.call('$refreshWallet', [decl.id], timeouts.callMs)),
      });
    case 'allowance':
      return registries.allowances.register(pluginId, decl.id, {
        id: decl.id,
        scope: decl.scope,
        limit: decl.limit,
        unit: decl.unit,
        spent: decl.spent,
        ...(decl.period !== undefined ? { period: decl.period } : {}),
        ...(decl.resetsAt !== undefined ? { resetsAt: decl.resetsAt } : {}),
        ...(decl.inactive ? { inactive: true } : {}),
        check: standingInactive(conn, async (request) =>
          AllowanceVerdict.parse(await conn.call('$checkAllowance', [decl.id, request, { config: await conn.config() }], timeouts.callMs)),
        ),
      });
    case 'command':
      return registries.commands.register(pluginId, decl.path.join(' '), {
        path: decl.path,
        help: decl.help,
        man: decl.man,
        run: async (args) => PluginCommandResult.parse(await conn.call('$runCommand', [decl.path, args], timeouts.callMs)),
      });
    case 'method':
      return registries.methods.register(pluginId, MethodRegistry.key(pluginId, decl.name), {
        call: (args) => conn.call('$callMethod', [decl.name, args], timeouts.callMs),
      });
    case 'hook':
      // The hook registry holds each hook to its own, shorter time limit; this one bounds how long main keeps
      // a call nobody waits for any more.
      return registries.hooks.register(pluginId, HookRegistry.key(pluginId, decl.point), {
        point: decl.point,
        invoke: (payload) => conn.call('$runHook', [decl.point, payload], timeouts.callMs),
        ...(decl.advisory ? { advisory: true } : {}),
      });
  }
}

function executeTool(
  conn: PluginCaller,
  name: string,
  args: unknown,
  signal: AbortSignalLike | undefined,
  timeouts: CallTimeouts,
  context: ToolCallContext | undefined,
  updates?: { sinks: ToolUpdateSinks; onUpdate: (text: string) => void },
): Promise<ToolOutput> {
  const callId = newId('t');
  if (updates) updates.sinks.set(callId, { deliver: updates.onUpdate, streamed: 0, tool: name, ...(context ? { sessionId: context.sessionId } : {}) });
  const call = conn.call('$executeTool', [callId, name, args, context ?? null], timeouts.toolMs);
  if (updates) void call.finally(() => updates.sinks.delete(callId)).catch(() => {});
  // A call that timed out may still be running in the plugin: ask it to stop.
  call.catch((e: unknown) => {
    if (e instanceof AmberError && e.code === 'timeout') void conn.call('$cancel', [callId], timeouts.callMs).catch(() => {});
  });
  if (!signal) return call;
  return new Promise<ToolOutput>((resolve, reject) => {
    const onAbort = () => {
      void conn.call('$cancel', [callId], timeouts.callMs).catch(() => {});
      resolve({ content: [{ type: 'text', text: `The call to '${name}' was aborted.` }], isError: true });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * An allowance check that keeps an answer of `inactive` (allowed, limits nothing) for INACTIVE_ALLOWANCE_HOLD_MS
 * while the plugin's `activity` stays the same; every other answer is asked for each time.
 */
export function standingInactive(
  conn: PluginCaller,
  ask: (request: AllowanceRequest) => Promise<AllowanceVerdict>,
  clock: () => number = () => performance.now(),
): (request: AllowanceRequest) => Promise<AllowanceVerdict> {
  let standing: { activity: number; until: number; verdict: AllowanceVerdict } | null = null;
  return async (request) => {
    const activity = conn.activity;
    if (standing && activity !== undefined && standing.activity === activity && clock() < standing.until) return standing.verdict;
    standing = null;
    // The mark from before the call: a call made while this check runs makes the answer stale at once.
    const verdict = await ask(request);
    standing =
      activity !== undefined && verdict.allowed && verdict.inactive === true ? { activity, until: clock() + INACTIVE_ALLOWANCE_HOLD_MS, verdict } : null;
    return verdict;
  };
}

/**
 * A provider in another process, seen as a StreamFn. It never throws: the plugin's death, a stream that
 * goes quiet for `streamIdleMs`, or an abort each end it with one `error` event.
 */
function providerStream(conn: PluginCaller, providerId: string, timeouts: CallTimeouts, sinks: StreamSinks): StreamFn {
  return async function* stream(request, signal) {
    const streamId = newId('s');
    const queue: ProviderEvent[] = [];
    let wake: (() => void) | null = null;
    let lastEventAt = Date.now();
    const push = (event: ProviderEvent) => {
      queue.push(event);
      lastEventAt = Date.now();
      wake?.();
    };
    const fail = (kind: ProviderErrorKind, message: string) =>
      push({ type: 'error', kind, message: errorAssistant(providerId, request.model.id, kind, message) });
    const onAbort = () => {
      void conn.call('$cancel', [streamId], timeouts.callMs).catch(() => {});
      fail('aborted', 'The request was aborted.');
    };
    sinks.set(streamId, push);
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (signal.aborted) onAbort();
      else {
        // The config goes with the call: the plugin would otherwise ask for it first, a round trip per turn.
        // What the plugin process holds from an earlier request (messages, system prompt, tools) is not sent again.
        const sent = sentRequestsOf(conn);
        const send = (config: Record<string, unknown>, whole: boolean) => {
          const encoded = sent.encode(streamId, request as SentRequest, whole);
          const parts = encoded.request as Pick<ProviderRequest, 'systemPrompt' | 'tools' | 'messages'>;
          return conn.call('$streamProvider', [streamId, providerId, { ...request, ...parts }, { config, ...(encoded.base ? { base: encoded.base } : {}) }], 0);
        };
        conn
          .config()
          .then((config) => {
            // Stopped while the config was read: the stream has ended already, and the call is never sent.
            if (signal.aborted) return;
            // A process that lost the messages a request builds on refuses it before starting: sent whole, then.
            return send(config, false)
              .catch((e: unknown) => (errorMessage(e) === MISSING_MESSAGES && !signal.aborted ? send(config, true) : Promise.reject(e)))
              .then(
                // Every event was sent before this answer on the same ordered pipe: a stream without an end is broken.
                () => fail('bad_stream', `The provider '${providerId}' ended its stream without a result.`),
              );
          })
          .catch((e: unknown) => fail('unknown', errorMessage(e)));
      }
      for (;;) {
        while (queue.length === 0) {
          const idleFor = Date.now() - lastEventAt;
          if (idleFor >= timeouts.streamIdleMs) {
            fail('network', `The provider '${providerId}' sent nothing for ${Math.round(timeouts.streamIdleMs / 1000)} s.`);
            break;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, timeouts.streamIdleMs - idleFor);
          });
          wake = null;
          clearTimeout(timer);
        }
        const event = queue.shift()!;
        yield event;
        if (event.type === 'done' || event.type === 'error') return;
      }
    } finally {
      clearTimeout(timer);
      sinks.delete(streamId);
      signal.removeEventListener('abort', onAbort);
    }
  };
}

/** The provider requests main has sent to each plugin process, mirroring what that process keeps. */
/** Per caller: a lazy plugin's caller outlives its processes, and a new process refuses a request it lacks the base of (then sent whole). */
const sentByConnection = new WeakMap<PluginCaller, SentRequests>();
function sentRequestsOf(conn: PluginCaller): SentRequests {
  let sent = sentByConnection.get(conn);
  if (!sent) sentByConnection.set(conn, (sent = new SentRequests()));
  return sent;
}

function errorAssistant(providerId: string, model: string, kind: ProviderErrorKind, message: string): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    provider: providerId,
    model,
    stopReason: kind === 'aborted' ? 'aborted' : 'error',
    errorMessage: message,
    timestamp: Date.now(),
  };
}
