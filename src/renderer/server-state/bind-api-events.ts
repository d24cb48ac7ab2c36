import type { QueryClient } from '@tanstack/react-query';
import type { ApprovalQuestion } from '../../shared/agent/index.ts';
import type { ElicitationQuestion } from '../../shared/elicitation/index.ts';
import type { PluginListing, PluginView, StatusBarView, StatusSegmentView } from '../../shared/api/index.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import type { AmberClient } from '../api/index.ts';
import { serverKeys } from './server-keys.ts';

type SessionsList = { sessions: SessionSummary[] };

const byPriority = (a: StatusSegmentView, b: StatusSegmentView) => b.priority - a.priority;

/** A session's bar with the plugins' segments replaced by the ones main just sent. */
function withPluginSegments(bar: StatusBarView, plugin: readonly StatusSegmentView[]): StatusBarView {
  return { ...bar, segments: [...bar.segments.filter((s) => s.source === 'core'), ...plugin].sort(byPriority) };
}

/** A listing with one plugin's new view in its place (or added, for a plugin found since). */
export function withPlugin(listing: PluginListing | undefined, p: PluginView): PluginListing | undefined {
  if (!listing) return listing;
  return { ...listing, plugins: listing.plugins.some((x) => x.id === p.id) ? listing.plugins.map((x) => (x.id === p.id ? p : x)) : [...listing.plugins, p] };
}

type Pending = { sessionId: string }[];

/** The conversations waiting for a workspace folder, with one added or taken away (a list not read yet stays unread). */
export function withPending(list: Pending | undefined, sessionId: string, waiting: boolean): Pending | undefined {
  if (!list) return list;
  const others = list.filter((p) => p.sessionId !== sessionId);
  return waiting ? [...others, { sessionId }] : others;
}

function upsertSession(list: SessionsList | undefined, s: SessionSummary): SessionsList | undefined {
  if (!list) return list;
  return { sessions: [s, ...list.sessions.filter((x) => x.id !== s.id)].sort((a, b) => b.updatedAt - a.updatedAt) };
}

/**
 * Keeps the server-state cache current from main's events: events that carry the new value replace the
 * cached one (status, panels, wallets, allowances, a plugin, a session's summary); the others invalidate
 * what they name, and a reconnect invalidates everything. Returns the unsubscribe.
 */
export function bindApiEvents(api: AmberClient, queries: QueryClient): () => void {
  // A read still on its way answers for an older moment than the value that just arrived: it is dropped.
  const replace = <T>(queryKey: readonly unknown[], value: T) => {
    void queries.cancelQueries({ queryKey, exact: true });
    queries.setQueryData<T>(queryKey, value);
  };
  const upsert = (s: SessionSummary) => queries.setQueriesData<SessionsList>({ queryKey: serverKeys.sessionsAll }, (list) => upsertSession(list, s));
  const offs = [
    api.on('status.changed', (view) => {
      if (view.sessionId !== null) {
        replace<StatusBarView>(serverKeys.status(view.sessionId), view);
        return;
      }
      // Plugins' segments, every session's: each cached bar keeps its own core segments.
      queries.setQueriesData<StatusBarView>({ queryKey: serverKeys.statusAll }, (bar) => (bar ? withPluginSegments(bar, view.segments) : bar));
    }),
    // A moved leaf (a branch switch, /model, /thinking) changes what the branch now shown says.
    api.on('session.leafMoved', ({ sessionId }) => {
      for (const queryKey of [
        serverKeys.status(sessionId),
        serverKeys.siblingsOf(sessionId),
        serverKeys.models(sessionId),
        serverKeys.thinking(sessionId),
        serverKeys.tree(sessionId),
      ]) {
        void queries.invalidateQueries({ queryKey });
      }
    }),
    api.on(
      'policy.changed',
      ({ sessionId }) => void queries.invalidateQueries({ queryKey: sessionId === null ? serverKeys.policyAll : serverKeys.policy(sessionId) }),
    ),
    api.on('session.created', upsert),
    api.on('projects.changed', ({ projects }) => replace(serverKeys.projects, projects)),
    api.on('session.updated', upsert),
    api.on('session.deleted', ({ sessionId }) =>
      queries.setQueriesData<SessionsList>({ queryKey: serverKeys.sessionsAll }, (list) =>
        list ? { sessions: list.sessions.filter((x) => x.id !== sessionId) } : list,
      ),
    ),
    // A session's summary (title, count, updated time) is pushed by main as session.updated: never read again here.
    api.on('agent.emitted', (e) => {
      // A run's replies can be regenerations: their versions, and the tree, are read again once it is over.
      if (e.type === 'agent_settled') {
        void queries.invalidateQueries({ queryKey: serverKeys.siblingsOf(e.sessionId) });
        void queries.invalidateQueries({ queryKey: serverKeys.tree(e.sessionId) });
      }
    }),
    api.on('panels.changed', (e) => replace(serverKeys.panels, e.panels)),
    api.on('wallets.changed', (listing) => replace(serverKeys.wallets, listing)),
    api.on('allowances.changed', (e) => replace(serverKeys.allowances, e.allowances)),
    api.on('plugins.changed', (p) => {
      queries.setQueryData<PluginListing>(serverKeys.plugins, (listing) => withPlugin(listing, p));
      // A plugin brings or takes models (its provider) and read-only claims (the policy's).
      void queries.invalidateQueries({ queryKey: serverKeys.modelsAll });
      void queries.invalidateQueries({ queryKey: serverKeys.policyAll });
    }),
    api.on('commands.changed', () => void queries.invalidateQueries({ queryKey: serverKeys.commands })),
    api.on('mcp.changed', (listing) => replace(serverKeys.mcp, listing)),
    api.on('schedule.changed', (list) => replace(serverKeys.schedule, list)),
    // Changed elsewhere (another window, /set): a form open on it shows the stored values again.
    api.on('plugins.configChanged', ({ id }) => void queries.invalidateQueries({ queryKey: serverKeys.pluginConfig(id) })),
    api.on('workspace.requested', ({ sessionId }) => queries.setQueryData<Pending>(serverKeys.workspacePending, (list) => withPending(list, sessionId, true))),
    api.on('workspace.settled', ({ sessionId }) => queries.setQueryData<Pending>(serverKeys.workspacePending, (list) => withPending(list, sessionId, false))),
    // The questions waiting for an answer: one asked joins the list, one answered (anywhere) leaves it.
    api.on('approval.requested', (q) =>
      queries.setQueryData<ApprovalQuestion[]>(serverKeys.approvals, (list) => (list && !list.some((x) => x.id === q.id) ? [...list, q] : list)),
    ),
    api.on('approval.settled', ({ questionId }) =>
      queries.setQueryData<ApprovalQuestion[]>(serverKeys.approvals, (list) => list?.filter((x) => x.id !== questionId)),
    ),
    // The forms waiting for the user: one asked joins the list, one settled (anywhere, or withdrawn) leaves it.
    api.on('elicitation.requested', (q) =>
      queries.setQueryData<ElicitationQuestion[]>(serverKeys.elicitations, (list) => (list && !list.some((x) => x.id === q.id) ? [...list, q] : list)),
    ),
    api.on('elicitation.settled', ({ questionId }) =>
      queries.setQueryData<ElicitationQuestion[]>(serverKeys.elicitations, (list) => list?.filter((x) => x.id !== questionId)),
    ),
    // Events missed while the connection was down: everything is read again.
    api.onConnectionChange((connected) => connected && void queries.invalidateQueries()),
  ];
  return () => {
    for (const off of offs) off();
  };
}
