import { z } from 'zod';
import { API_METHODS, type ApiOutput, type Channel, type EventName, type EventPayload, isChannel } from '../../shared/api/index.ts';
import type { ApiErrorBody, ApiResult } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import { Emitter } from '../../shared/emitter.ts';
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
import { createConversationRoutes } from './conversation-routes.ts';
import { createPlanRoutes } from './plan-routes.ts';
import { createSubagentRoutes } from './subagent-routes.ts';
import { createContextRoutes } from './context-routes.ts';
import { createEvalsRoutes } from './evals-routes.ts';
import { createSkillRoutes } from './skill-routes.ts';
import { createScheduleRoutes } from './schedule-routes.ts';
import { createElicitationRoutes } from './elicitation-routes.ts';
import { createProjectRoutes } from './project-routes.ts';

type ParsedInput<C extends Channel> = z.output<(typeof API_METHODS)[C]['input']>;
export type Handlers = { [C in Channel]: (input: ParsedInput<C>) => ApiOutput<C> | Promise<ApiOutput<C>> };

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Serves the API contract over any transport: inputs parsed by zod, typed errors turned into `{ code, message }`. */
export interface ApiRouter {
  call(channel: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Every event the core's owners announce (see window-events.ts), in order, for a transport to forward. */
  subscribe(listener: EventListener): Disposable;
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
  const log = options.log ?? ((message, error) => console.error(message, error));
  const probe: Probe = options.probe ?? ((test, timeoutMs) => testConnection(app, test, timeoutMs));
  const subscriptions = new DisposableStore();

  // The window's events: what the core's owners announced, mapped once in createApp. Routes never emit.
  const events = subscriptions.add(new Emitter<{ event: EventName; payload: unknown }>());
  subscriptions.add(app.onDidEmit((e) => events.fire(e)));

  // Each domain's channels live in a module of their own; this router only joins them.
  const sessions = subscriptions.add(createSessionRoutes(app));
  const providers = subscriptions.add(createProviderRoutes(app, probe));
  const plugins = subscriptions.add(createPluginRoutes(app, options.openPath ? { openPath: options.openPath } : {}));
  const status = subscriptions.add(createStatusRoutes(app));
  const panels = subscriptions.add(createPanelRoutes(app));
  const commands = subscriptions.add(createCommandRoutes(app));
  const policy = subscriptions.add(createPolicyRoutes(app));
  const sandbox = subscriptions.add(createSandboxRoutes(app));
  const workspace = subscriptions.add(createWorkspaceRoutes(app, options.pickFolder ? { pickFolder: options.pickFolder } : {}));
  const mcp = subscriptions.add(createMcpRoutes(app));
  const plan = subscriptions.add(createPlanRoutes(app));
  const conversations = subscriptions.add(createConversationRoutes(app));
  const subagents = subscriptions.add(createSubagentRoutes(app));
  const chat = subscriptions.add(createChatRoutes(app));
  const context = subscriptions.add(createContextRoutes(app));
  const evals = subscriptions.add(createEvalsRoutes(app));
  const skills = subscriptions.add(createSkillRoutes(app));
  const schedule = subscriptions.add(createScheduleRoutes(app));
  const projects = subscriptions.add(createProjectRoutes(app));
  const elicitations = subscriptions.add(createElicitationRoutes(app));

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
    ...plan.handlers,
    ...conversations.handlers,
    ...subagents.handlers,
    ...context.handlers,
    ...evals.handlers,
    ...skills.handlers,
    ...schedule.handlers,
    ...projects.handlers,
    ...elicitations.handlers,
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
      return events.event(({ event, payload }) => {
        try {
          listener(event, payload as EventPayload<typeof event>);
        } catch (e) {
          log(`An event listener for ${event} failed`, e);
        }
      });
    },
    dispose() {
      // A closed window hears nothing more, not even what its own routes' teardown changes.
      subscriptions.dispose();
    },
  };
}
