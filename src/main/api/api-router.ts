import { z } from 'zod';
import { API_EVENTS, API_METHODS, type ApiOutput, type Channel, type EventName, type EventPayload, isChannel } from '../../shared/api/index.ts';
import type { ApiErrorBody, ApiResult } from '../../shared/api/index.ts';
import { type Disposable, toDisposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { SessionTrash } from './session-trash.ts';

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
  /** Where unexpected errors are reported (the user sees a generic sentence). */
  log?: (message: string, error: unknown) => void;
}

const LAST_SESSION_KEY = 'ui.lastSessionId';

export function toErrorBody(e: unknown): ApiErrorBody {
  if (e instanceof AmberError) return { code: e.code, message: e.message };
  if (e instanceof z.ZodError) return { code: 'invalid_input', message: `The request was not understood: ${z.prettifyError(e).replace(/\n+/g, '; ')}` };
  return { code: 'internal', message: 'Something went wrong inside Amber; the details are in its log. Try again, and report it if it keeps happening.' };
}

function agentMissing(): never {
  throw new AmberError('unavailable', 'The agent is not part of this build yet, so messages cannot be sent to a model.');
}

export function createApiRouter(app: App, options: ApiRouterOptions = {}): ApiRouter {
  const listeners = new Set<EventListener>();
  const log = options.log ?? ((message, error) => console.error(message, error));
  const store = app.sessions;
  const trash = new SessionTrash(store);

  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    for (const listener of listeners) {
      try {
        listener(event, payload);
      } catch (e) {
        log(`An event listener for ${event} failed`, e);
      }
    }
  };

  const handlers: Handlers = {
    'app.bootstrap': () => {
      const last = store.getSetting(LAST_SESSION_KEY);
      let lastSessionId: string | null = null;
      if (last) {
        try {
          lastSessionId = store.get(last).id;
        } catch {
          lastSessionId = null;
        }
      }
      return { health: app.health(), lastSessionId, providerConfigured: store.getSetting('provider.baseUrl') !== null, agentAvailable: false };
    },
    'sessions.list': (input) => ({ sessions: store.list(input), total: store.count() }),
    'sessions.get': ({ sessionId }) => store.get(sessionId),
    'sessions.create': (input) => {
      const summary = store.create({ title: input.title, cwd: input.cwd ?? null });
      store.setSetting(LAST_SESSION_KEY, summary.id);
      emit('session.created', summary);
      return summary;
    },
    'sessions.open': ({ sessionId }) => {
      const summary = store.get(sessionId);
      store.setSetting(LAST_SESSION_KEY, sessionId);
      return summary;
    },
    'sessions.rename': ({ sessionId, title }) => {
      const summary = store.rename(sessionId, title);
      emit('session.updated', summary);
      return summary;
    },
    'sessions.delete': ({ sessionId }) => {
      trash.delete(sessionId);
      if (store.getSetting(LAST_SESSION_KEY) === sessionId) store.setSetting(LAST_SESSION_KEY, null);
      emit('session.deleted', { sessionId });
      return { restorable: true };
    },
    'sessions.restore': ({ sessionId }) => {
      const summary = trash.restore(sessionId);
      emit('session.created', summary);
      return summary;
    },
    'sessions.page': ({ sessionId, before, limit }) => store.page(sessionId, { before: before ?? null, limit }),
    'sessions.tree': ({ sessionId }) => ({ nodes: store.tree(sessionId), leafId: store.leaf(sessionId) }),
    'sessions.siblings': ({ sessionId, entryIds }) => {
      const out: Record<string, { ids: string[]; index: number }> = {};
      for (const id of entryIds) {
        const s = store.siblings(sessionId, id);
        if (s.ids.length > 1) out[id] = s;
      }
      return out;
    },
    'sessions.branch': ({ sessionId, entryId, follow }) => {
      const target = entryId !== null && follow === 'newest' ? store.newestLeafUnder(sessionId, entryId) : entryId;
      store.branch(sessionId, target);
      emit('session.branched', { sessionId, leafId: target });
      return { leafId: target };
    },
    'entries.label': ({ sessionId, targetId, label }) => {
      // A label is an entry of its own, appended on the active path like any other (the leaf moves onto it).
      const entry = store.append(sessionId, label ? { type: 'label', targetId, label } : { type: 'label', targetId });
      emit('session.branched', { sessionId, leafId: entry.id });
      return { leafId: entry.id };
    },
    'chat.send': () => agentMissing(),
    'chat.regenerate': () => agentMissing(),
    'chat.abort': () => agentMissing(),
    'chat.steer': () => agentMissing(),
    'chat.followUp': () => agentMissing(),
    'approvals.list': () => [],
    'approvals.answer': () => agentMissing(),
    'providers.presets': () => [],
    'providers.test': () => {
      throw new AmberError('unavailable', 'Provider setup is not part of this build yet.');
    },
    'providers.save': () => {
      throw new AmberError('unavailable', 'Provider setup is not part of this build yet.');
    },
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
      listeners.clear();
    },
  };
}

