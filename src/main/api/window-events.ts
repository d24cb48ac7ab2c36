import type { EventName, EventPayload } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { App } from '../app.ts';
import { allowanceViews } from './allowance-views.ts';
import { panelViews } from './panel-views.ts';
import { pluginView } from './plugin-routes.ts';

/** One API event the core raises for the windows, whichever owner's change it tells of. */
export type CoreEvent = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

/** The owners whose changes the windows hear of. */
export type WindowEventSources = Pick<
  App,
  | 'sessions'
  | 'agent'
  | 'approvals'
  | 'policy'
  | 'sandbox'
  | 'workspaces'
  | 'plugins'
  | 'pluginConfig'
  | 'status'
  | 'commands'
  | 'mcp'
  | 'wallets'
  | 'plan'
  | 'subagents'
  | 'projects'
  | 'elicitations'
  | 'scheduler'
  | 'providers'
>;

export interface WindowEvents extends Disposable {
  /** Every window event, in the order the owners announced their changes. */
  readonly event: Event<CoreEvent>;
}

/**
 * The one map from owner events to window events, built once per core by createApp. Owners announce their
 * own changes (`onDidX`); routes and commands only call owners and never emit, so each change reaches a
 * window once, whichever route, command or CLI path made it.
 */
export function windowEvents(app: WindowEventSources): WindowEvents {
  const out = new Emitter<CoreEvent>((e) => console.error('A window event listener failed', e));
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => out.fire({ event, payload } as CoreEvent);
  const on = new DisposableStore();
  /**
   * Owners whose events cost something to turn into a window's (a status bar is built from the conversation's
   * context, a summary read from the store) are listened to only while some window listens: a run with no
   * window open (the CLI, an eval, a test) builds neither. Each has no other listener, so the order is kept.
   */
  const costly: (() => Disposable)[] = [];
  let heard: Disposable[] | null = null;
  let disposed = false;
  const { sessions, plugins } = app;
  const registries = plugins.registries;
  const accountName = (id: string) => app.providers.list().find((a) => a.id === id)?.name;

  // Ordered as the windows heard them before (plugins, status, panels, commands, policy, workspace, sessions,
  // then the agent and the approvals last): one change that several owners announce arrives in that order.
  on.add(plugins.onDidChange((info) => emit('plugins.changed', pluginView(info, plugins.configuration(info.id) !== null))));
  on.add(app.pluginConfig.onDidChange((id) => emit('plugins.configChanged', { id })));
  costly.push(() => app.status.onDidChange((bar) => emit('status.changed', bar)));
  on.add(registries.panels.onDidChange(() => emit('panels.changed', { panels: panelViews(registries.panels) })));
  on.add(app.wallets.onDidChange((listing) => emit('wallets.changed', listing)));
  on.add(registries.allowances.onDidChange(() => emit('allowances.changed', { allowances: allowanceViews(registries.allowances, accountName) })));
  // What the command line offers: the tree, and its live feeds (plugins, models, MCP servers).
  const commandsChanged = () => emit('commands.changed', {});
  on.add(app.commands.tree.onDidChange(commandsChanged));
  on.add(plugins.onDidChange(commandsChanged));
  on.add(registries.providers.onDidChange(commandsChanged));
  on.add(app.mcp.onDidChangeServers(commandsChanged));
  on.add(app.mcp.onDidChange((listing) => emit('mcp.changed', listing)));
  on.add(app.plan.onDidChange((view) => emit('plan.changed', view)));
  // The policy and its sandbox: the windows read the policy again.
  on.add(app.policy.onDidChange(({ sessionId }) => emit('policy.changed', { sessionId })));
  on.add(app.sandbox.onDidChange(({ sessionId }) => emit('policy.changed', { sessionId })));
  on.add(app.workspaces.onDidRequest(({ sessionId }) => emit('workspace.requested', { sessionId })));
  on.add(app.workspaces.onDidSettle(({ sessionId }) => emit('workspace.settled', { sessionId })));
  // A child agent's conversation is not listed: it is seen through its parent's tool card.
  on.add(sessions.onDidCreate((summary) => summary.parent || emit('session.created', summary)));
  costly.push(() => sessions.onDidChangeSummary((summary) => summary.parent || emit('session.updated', summary)));
  on.add(sessions.onDidDelete(({ sessionId }) => emit('session.deleted', { sessionId })));
  // A run's own appends move the leaf too: its agent events tell those, entry by entry.
  on.add(
    sessions.onDidMoveLeaf((move) => app.agent.isRunning(move.sessionId) || app.subagents.isRunningChild(move.sessionId) || emit('session.leafMoved', move)),
  );
  on.add(app.subagents.onDidChange((view) => emit('subagent.changed', view)));
  on.add(app.scheduler.onDidChange((tasks) => emit('schedule.changed', { tasks })));
  on.add(app.scheduler.onDidEndRun((ended) => emit('schedule.runEnded', ended)));
  on.add(app.projects.onDidChange(() => emit('projects.changed', { projects: app.projects.list() })));
  on.add(app.agent.onDidEmit((event) => emit('agent.emitted', event)));
  on.add(
    app.approvals.onDidChange((change) => {
      if (change.kind === 'requested') emit('approval.requested', change.question);
      else emit('approval.settled', { questionId: change.questionId, answer: change.answer });
    }),
  );
  on.add(
    app.elicitations.onDidChange((change) => {
      if (change.kind === 'requested') emit('elicitation.requested', change.question);
      else emit('elicitation.settled', { questionId: change.questionId, action: change.action });
    }),
  );
  return {
    event: (listener) => {
      const subscription = out.event(listener);
      if (disposed) return subscription;
      heard ??= costly.map((listen) => listen());
      return toDisposable(() => {
        subscription.dispose();
        if (out.listenerCount > 0 || heard === null) return;
        for (const d of heard) d.dispose();
        heard = null;
      });
    },
    dispose() {
      disposed = true;
      on.dispose();
      for (const d of heard ?? []) d.dispose();
      heard = null;
      out.dispose();
    },
  };
}
