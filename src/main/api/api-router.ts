import { z } from 'zod';
import { API_EVENTS, API_METHODS, type ApiOutput, type Channel, type EventName, type EventPayload, isChannel } from '../../shared/api/index.ts';
import type { ApiErrorBody, ApiResult } from '../../shared/api/index.ts';
import { thinkingLevelOf } from '../../shared/agent/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { type Probe, providerPresets, saveProvider, TEST_TIMEOUT_MS, testConnection } from './provider-setup.ts';
import { SessionTrash } from './session-trash.ts';
import { createSettingsRoutes } from './settings-routes.ts';
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

const LAST_SESSION_KEY = 'ui.lastSessionId';

export function toErrorBody(e: unknown): ApiErrorBody {
  if (e instanceof AmberError) return { code: e.code, message: e.message };
  if (e instanceof z.ZodError) return { code: 'invalid_input', message: `The request was not understood: ${z.prettifyError(e).replace(/\n+/g, '; ')}` };
  return { code: 'internal', message: 'Something went wrong inside Amber; the details are in its log. Try again, and report it if it keeps happening.' };
}

function noModel(): never {
  throw new AmberError('unavailable', 'No model is set up, so messages cannot be sent yet. Set up a provider first (the button at the top right).');
}

export function createApiRouter(app: App, options: ApiRouterOptions = {}): ApiRouter {
  const listeners = new Set<EventListener>();
  const log = options.log ?? ((message, error) => console.error(message, error));
  const store = app.sessions;
  const trash = new SessionTrash(store);
  const probe: Probe = options.probe ?? ((test, timeoutMs) => testConnection(app, test, timeoutMs));
  const agent = app.agent;
  const subscriptions = new DisposableStore();

  const assertIdle = (sessionId: string, doing: string) => {
    if (agent.isRunning(sessionId)) throw new AmberError('conflict', `A reply is still streaming in this conversation; stop it or wait for it before you ${doing}.`);
  };

  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    for (const listener of listeners) {
      try {
        listener(event, payload);
      } catch (e) {
        log(`An event listener for ${event} failed`, e);
      }
    }
  };

  // Settings, panels, status bar and commands live in their own module.
  const settings = subscriptions.add(createSettingsRoutes(app, { emit, ...(options.openPath ? { openPath: options.openPath } : {}) }));

  const workspace = subscriptions.add(createWorkspaceRoutes(app, { emit, ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}) }));

  const handlers: Handlers = {
    ...settings.handlers,
    ...workspace.handlers,
    ...subscriptions.add(createMcpRoutes(app, { emit, commands: settings.commands })).handlers,
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
      return { health: app.health(), lastSessionId, providerConfigured: app.defaultModel() !== null, agentAvailable: true };
    },
    'sessions.list': (input) => ({ sessions: store.list(input), total: store.count() }),
    'sessions.get': ({ sessionId }) => store.get(sessionId),
    'sessions.create': (input) => {
      // The folder is checked before anything is made: a refused one creates no conversation.
      const summary = store.create({ title: input.title, cwd: app.workspaces.forNewConversation(input.cwd) });
      store.setSetting(LAST_SESSION_KEY, summary.id);
      emit('session.created', summary);
      return summary;
    },
    'sessions.open': ({ sessionId }) => {
      const summary = store.get(sessionId);
      store.setSetting(LAST_SESSION_KEY, sessionId);
      agent.sessionStarted(sessionId, summary.messageCount > 0 ? 'resume' : 'open');
      return summary;
    },
    'sessions.rename': ({ sessionId, title }) => {
      const summary = store.rename(sessionId, title);
      emit('session.updated', summary);
      return summary;
    },
    'sessions.delete': ({ sessionId }) => {
      assertIdle(sessionId, 'delete it');
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
        // Versions are messages; a label or a setting hung on the same parent is not one.
        const ids = store.siblings(sessionId, id).ids.filter((sid) => store.entry(sessionId, sid).type === 'message');
        if (ids.length > 1) out[id] = { ids, index: ids.indexOf(id) };
      }
      return out;
    },
    'sessions.branch': ({ sessionId, entryId, follow }) => {
      assertIdle(sessionId, 'switch branches');
      const target = entryId !== null && follow === 'newest' ? store.newestLeafUnder(sessionId, entryId) : entryId;
      store.branch(sessionId, target);
      emit('session.branched', { sessionId, leafId: target });
      return { leafId: target };
    },
    'entries.label': ({ sessionId, targetId, label }) => {
      assertIdle(sessionId, 'change labels');
      // A label is an entry of its own, appended on the active path like any other (the leaf moves onto it).
      const entry = store.append(sessionId, label ? { type: 'label', targetId, label } : { type: 'label', targetId });
      emit('session.branched', { sessionId, leafId: entry.id });
      return { leafId: entry.id };
    },
    'chat.send': ({ sessionId, text, parentId }) => {
      assertIdle(sessionId, 'send another message');
      const runOptions = startOptions(sessionId, parentId);
      if (parentId !== undefined) {
        // Editing an earlier message: the new one forks where the old one hung.
        store.branch(sessionId, parentId);
        emit('session.branched', { sessionId, leafId: parentId });
      }
      return { runId: agent.start(sessionId, text, runOptions).runId };
    },
    'chat.regenerate': ({ sessionId, entryId }) => {
      assertIdle(sessionId, 'regenerate');
      const entry = store.entry(sessionId, entryId);
      if (entry.type !== 'message' || entry.message.role !== 'assistant') throw new AmberError('invalid_input', 'Only a reply from the model can be regenerated.');
      const runOptions = startOptions(sessionId, entry.parentId);
      store.branch(sessionId, entry.parentId);
      emit('session.branched', { sessionId, leafId: entry.parentId });
      return { runId: agent.start(sessionId, null, runOptions).runId };
    },
    'chat.abort': ({ sessionId }) => ({ aborted: agent.abort(sessionId) }),
    'chat.steer': ({ sessionId, text }) => {
      if (!agent.steer(sessionId, text)) throw new AmberError('conflict', 'No reply is streaming any more; send your message as a new one.');
      return { queued: true };
    },
    'chat.followUp': ({ sessionId, text }) => {
      if (!agent.followUp(sessionId, text)) throw new AmberError('conflict', 'No reply is streaming any more; send your message as a new one.');
      return { queued: true };
    },
    'chat.lastPrompt': ({ sessionId }) => {
      store.get(sessionId);
      const sent = agent.lastPrompt(sessionId);
      return sent && { systemPrompt: sent.systemPrompt, tools: sent.tools.map(({ name, description, readOnly }) => ({ name, description, readOnly })), at: sent.at };
    },
    'chat.models': ({ sessionId }) => ({
      current: store.context(sessionId).model ?? app.defaultModel(),
      models: app.plugins.registries.providers.list().flatMap((p) =>
        p.models.map((m) => {
          const info = app.modelInfo({ provider: p.id, modelId: m.id });
          return { provider: p.id, modelId: m.id, name: info?.name ?? m.name ?? m.id, reasoning: info?.reasoning ?? m.reasoning };
        }),
      ),
    }),
    'chat.setModel': ({ sessionId, provider, modelId }) => {
      assertIdle(sessionId, 'switch models');
      if (!app.plugins.registries.providers.get(provider)) throw new AmberError('not_found', `No provider '${provider}' is set up; choose one of the models listed.`);
      const current = store.context(sessionId).model;
      if (!current || current.provider !== provider || current.modelId !== modelId) {
        const entry = agent.setModel(sessionId, { provider, modelId });
        emit('session.branched', { sessionId, leafId: entry.id });
      }
      return { current: { provider, modelId } };
    },
    'chat.getThinking': ({ sessionId }) => ({ level: thinkingLevelOf(store.context(sessionId).thinkingLevel) }),
    'chat.setThinking': ({ sessionId, level }) => {
      assertIdle(sessionId, 'change the thinking level');
      if (thinkingLevelOf(store.context(sessionId).thinkingLevel) !== level) {
        const entry = agent.setThinkingLevel(sessionId, level);
        emit('session.branched', { sessionId, leafId: entry.id });
      }
      return { level };
    },
    'instructions.get': ({ sessionId }) => app.systemPrompt.instructions(sessionId ?? null),
    'instructions.set': ({ sessionId, text }) => {
      if (sessionId) store.get(sessionId);
      app.systemPrompt.setInstructions(sessionId, text);
      return app.systemPrompt.instructions(sessionId);
    },
    'approvals.list': () => app.approvals.pending(),
    'approvals.answer': ({ questionId, answer }) => {
      app.approvals.answer(questionId, answer);
      return { ok: true };
    },
    'providers.presets': () => providerPresets(probe),
    'providers.test': ({ baseUrl, apiKey, dialect, flavor }) => probe({ baseUrl, ...(apiKey ? { apiKey } : {}), ...(dialect ? { dialect } : {}), ...(flavor ? { flavor } : {}) }, TEST_TIMEOUT_MS),
    'providers.save': async ({ providerId, baseUrl, apiKey, model, flavor }) => {
      const saved = await saveProvider(app, { providerId, baseUrl, model, ...(apiKey ? { apiKey } : {}), ...(flavor ? { flavor } : {}) });
      return { ok: true as const, ...saved };
    },
  };

  /** A branch that names no model yet gets the default one; without either, there is nothing to send to. */
  const startOptions = (sessionId: string, leafId?: string | null): { model?: { provider: string; modelId: string } } => {
    if (store.context(sessionId, leafId).model !== null) return {};
    const model = app.defaultModel();
    return model ? { model } : noModel();
  };

  subscriptions.add(agent.subscribe((event) => emit('agent.emitted', event)));
  subscriptions.add(
    app.approvals.subscribe((change) => {
      if (change.kind === 'requested') emit('approval.requested', change.question);
      else emit('approval.settled', { questionId: change.questionId, answer: change.answer });
    }),
  );

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
      subscriptions.dispose();
      listeners.clear();
    },
  };
}

