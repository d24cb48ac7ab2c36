import { z } from 'zod';
import { API_EVENTS, API_METHODS, type ApiOutput, type Channel, type EventName, type EventPayload, isChannel } from '../../shared/api/index.ts';
import type { ApiErrorBody, ApiResult } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { type Probe, testConnection } from './provider-setup.ts';
import { createChatRoutes } from './chat-routes.ts';
import { createCommandRoutes } from './command-routes.ts';
import { createPanelRoutes } from './panel-routes.ts';
import { createPluginRoutes } from './plugin-routes.ts';
import { createPolicyRoutes } from './policy-routes.ts';
import { createProviderRoutes } from './provider-routes.ts';
import { createSandboxRoutes } from './sandbox-routes.ts';
import { createSessionRoutes } from './session-routes.ts';
import { createStatusRoutes } from './status-routes.ts';
import { createWorkspaceRoutes } from './workspace-routes.ts';
import { createMcpRoutes } from './mcp-routes.ts';

type ParsedInput<C extends Channel> = z.output<(typeof API_METHODS)[C]['input']>;
export type Handlers = { [C in Channel]: (input: ParsedInput<C>) => ApiOutput<C> | Promise<ApiOutput<C>> };

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Serves the API contract over any transport: inputs parsed by zod, typed errors turned into `{ code, message }`. */
export interface ApiRouter {
  call(channel: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Every event the core emits, in order, for a transport to forward. */
  subscribe(listener: EventListener): Disposable;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  dispose(): void;
}

export interface ApiRouterOptions {
  /** The connection test behind providers.test and the presets' `detected` (default: the dialect's provider plugin). */
  probe?: Probe;
  /** Where unexpected errors are reported (the user sees a generic sentence). */
  log?: (message: string, error: unknown) => void;
  /** Opens a folder with the system's file manager (the desktop shell). */
  openPath?: (path: string) => Promise<boolean>;
  /** The system's folder picker (the desktop shell): the chosen folder, or null when cancelled. */
  pickFolder?: (defaultPath: string) => Promise<string | null>;
}

export function toErrorBody(e: unknown): ApiErrorBody {
  if (e instanceof AmberError) return { code: e.code, message: e.message };
  if (e instanceof z.ZodError) return { code: 'invalid_input', message: `The request was not understood: ${z.prettifyError(e).replace(/\n+/g, '; ')}` };
  return { code: 'internal', message: 'Something went wrong inside Amber; the details are in its log. Try again, and report it if it keeps happening.' };
}

export function createApiRouter(app: App, options: ApiRouterOptions = {}): ApiRouter {
  const listeners = new Set<EventListener>();
  const log = options.log ?? ((message, error) => console.error(message, error));
  const probe: Probe = options.probe ?? ((test, timeoutMs) => testConnection(app, test, timeoutMs));
  const subscriptions = new DisposableStore();

  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    for (const listener of listeners) {
      try {
        listener(event, payload);
      } catch (e) {
        log(`An event listener for ${event} failed`, e);
      }
    }
  };

  // What the core raises outside a call's own answer (a command made a session, moved a branch) goes out too.
  subscriptions.add(app.onDidEmit(({ event, payload }) => emit(event, payload as EventPayload<typeof event>)));

  // Each domain's channels live in a module of their own; this router only joins them.
  const sessions = subscriptions.add(createSessionRoutes(app, { emit }));
  const providers = subscriptions.add(createProviderRoutes(app, probe));
  const plugins = subscriptions.add(createPluginRoutes(app, { emit, ...(options.openPath ? { openPath: options.openPath } : {}) }));
  const status = subscriptions.add(createStatusRoutes(app, { emit }));
  const panels = subscriptions.add(createPanelRoutes(app, { emit }));
  const commands = subscriptions.add(createCommandRoutes(app, { emit }));
  const policy = subscriptions.add(createPolicyRoutes(app, { emit }));
  const sandbox = subscriptions.add(createSandboxRoutes(app));

  const workspace = subscriptions.add(createWorkspaceRoutes(app, { emit, ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}) }));
  const mcp = subscriptions.add(createMcpRoutes(app));
  // Last, as before: the agent's and the approvals' events are heard after every other domain's.
  const chat = subscriptions.add(createChatRoutes(app, { emit }));

  const handlers: Handlers = {
    ...sessions.handlers,
    ...chat.handlers,
    ...providers.handlers,
    ...plugins.handlers,
    ...status.handlers,
    ...panels.handlers,
    ...commands.handlers,
    ...policy.handlers,
    ...sandbox.handlers,
    ...workspace.handlers,
    ...mcp.handlers,
  };

  return {
    async call(channel, input) {
      if (!isChannel(channel)) return { ok: false, error: { code: 'not_found', message: `There is no API call named ${channel}.` } };
      try {
        const parsed = API_METHODS[channel].input.parse(input ?? {});
        const handler = handlers[channel] as (input: unknown) => unknown;
        return { ok: true, value: await handler(parsed) };
      } catch (e) {
        const body = toErrorBody(e);
        if (body.code === 'internal') log(`API call ${channel} failed`, e);
        return { ok: false, error: body };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return toDisposable(() => listeners.delete(listener));
    },
    emit(event, payload) {
      emit(event, API_EVENTS[event].parse(payload) as EventPayload<typeof event>);
    },
    dispose() {
      // A closed window hears nothing more, not even what its own routes' teardown changes.
      listeners.clear();
      subscriptions.dispose();
    },
  };
}

