import type { Channel, SiblingMap, SiblingVersion } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import { type Entry, entryPreview } from '../../shared/sessions/index.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';
import { assertIdle } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import { newConversation, newProjectConversation } from '../projects/index.ts';

/** A version as the switcher tells it from its siblings: its preview, its time, and a reply's model. */
function siblingVersion(entry: Entry): SiblingVersion {
  const at = Date.parse(entry.timestamp);
  const model = entry.type === 'message' && entry.message.role === 'assistant' ? entry.message.model : undefined;
  const named = typeof model === 'string' && model !== '';
  return { preview: entryPreview(entry), ...(Number.isNaN(at) ? {} : { at }), ...(named ? { model } : {}) };
}

type SessionChannels = 'app.bootstrap' | Exclude<Extract<Channel, `sessions.${string}`>, 'sessions.setWorkspace'> | 'entries.label';

/**
 * The conversations over the store: list, open, rename, delete with undo from the trash, branch, label. The
 * store announces each change (a session made, its new summary, the leaf moved).
 */
export function createSessionRoutes(app: App): Disposable & { handlers: Pick<Handlers, SessionChannels> } {
  const { sessions: store, settings, trash, agent } = app;
  return {
    handlers: {
      'app.bootstrap': () => {
        // The conversation the window had open, so a restart opens it again.
        const last = settings.get('ui.lastSessionId');
        let lastSessionId: string | null = null;
        if (last) {
          try {
            lastSessionId = store.get(last).id;
          } catch {
            lastSessionId = null;
          }
        }
        return { health: app.health(), lastSessionId, providerConfigured: app.defaultModel() !== null };
      },
      'sessions.list': ({ projectId, ...input }) => ({
        sessions: store.list({ ...input, ...(projectId !== undefined ? { cwd: app.projects.folderOf(projectId) } : {}) }),
        total: store.count(),
      }),
      'sessions.get': ({ sessionId }) => store.get(sessionId),
      'sessions.create': (input) => {
        if (input.projectId !== undefined && input.cwd)
          throw new AmberError('invalid_input', 'A conversation started in a project works in its folder: give no folder.');
        // The folder is checked before anything is made: a refused one creates no conversation.
        const summary =
          input.projectId !== undefined
            ? newProjectConversation(app, input.projectId, input.title !== undefined ? { title: input.title } : {})
            : newConversation(app, { title: input.title, cwd: app.workspaces.forNewConversation(input.cwd) });
        settings.set('ui.lastSessionId', summary.id);
        return summary;
      },
      'sessions.open': ({ sessionId }) => {
        const summary = store.get(sessionId);
        settings.set('ui.lastSessionId', sessionId);
        agent.sessionStarted(sessionId, summary.messageCount > 0 ? 'resume' : 'open');
        return summary;
      },
      'sessions.rename': ({ sessionId, title }) => {
        return store.rename(sessionId, title);
      },
      'sessions.delete': ({ sessionId }) => {
        assertIdle(agent, sessionId, 'delete it');
        trash.delete(sessionId);
        if (settings.get('ui.lastSessionId') === sessionId) settings.clear('ui.lastSessionId');
        return { restorable: true };
      },
      'sessions.restore': ({ sessionId }) => {
        return trash.restore(sessionId);
      },
      'sessions.page': ({ sessionId, before, limit }) => store.page(sessionId, { before: before ?? null, limit }),
      'sessions.tree': ({ sessionId }) => ({ nodes: store.tree(sessionId), leafId: store.leaf(sessionId) }),
      'sessions.treePage': ({ sessionId, before, limit }) => store.treePage(sessionId, { before: before ?? null, limit }),
      'sessions.treeBranch': ({ sessionId, from, limit }) => store.treeBranch(sessionId, from, { limit }),
      'sessions.siblings': ({ sessionId, entryIds }) => {
        const out: SiblingMap = {};
        for (const id of entryIds) {
          // Versions are messages; a label or a setting hung on the same parent is not one.
          const versions = store
            .siblings(sessionId, id)
            .ids.map((sid) => store.entry(sessionId, sid))
            .filter((e) => e.type === 'message');
          if (versions.length < 2) continue;
          const ids = versions.map((e) => e.id);
          out[id] = { ids, index: ids.indexOf(id), versions: versions.map(siblingVersion) };
        }
        return out;
      },
      'sessions.branch': ({ sessionId, entryId, follow }) => {
        assertIdle(agent, sessionId, 'switch branches');
        const target = entryId !== null && follow === 'newest' ? store.newestLeafUnder(sessionId, entryId) : entryId;
        store.branch(sessionId, target);
        return { leafId: target };
      },
      'entries.label': ({ sessionId, targetId, label }) => {
        assertIdle(agent, sessionId, 'change labels');
        // A label is an entry of its own, appended on the active path like any other (the leaf moves onto it).
        const entry = store.append(sessionId, label ? { type: 'label', targetId, label } : { type: 'label', targetId });
        return { leafId: entry.id };
      },
    },
    dispose: () => {},
  };
}
