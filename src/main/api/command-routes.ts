import type { EventName, EventPayload } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { AppCommandContext } from '../commands/index.ts';
import type { Handlers } from './api-router.ts';

export interface CommandRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

type CommandChannels = 'commands.list' | 'commands.complete' | 'commands.run';

/** The command tree over the API; what it offers changes with the tree and with its live feeds (plugins, models). */
export function createCommandRoutes(app: App, options: CommandRoutesOptions): Disposable & { handlers: Pick<Handlers, CommandChannels> } {
  const { tree } = app.commands;
  const subscriptions = new DisposableStore();
  const changed = () => options.emit('commands.changed', {});
  subscriptions.add(tree.onDidChange(changed));
  // Feeds (plugins, models) read live: a plugin coming or going changes what they offer.
  subscriptions.add(app.plugins.onDidChange(changed));
  subscriptions.add(app.plugins.registries.providers.onDidChange(changed));
  return {
    handlers: {
      'commands.list': () => tree.list(),
      'commands.complete': ({ input }) => tree.complete(input),
      'commands.run': async ({ input, sessionId }) => {
        let openSessionId: string | null = null;
        const context: AppCommandContext = { sessionId: sessionId ?? null, openSession: (id) => (openSessionId = id) };
        const result = await tree.run(input, context);
        return { result, openSessionId };
      },
    },
    dispose: () => subscriptions.dispose(),
  };
}
