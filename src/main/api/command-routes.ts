import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { AppCommandContext } from '../commands/index.ts';
import type { Handlers } from './api-router.ts';

type CommandChannels = 'commands.list' | 'commands.complete' | 'commands.run';

/** The command tree over the API; what it offers changes with the tree and with its live feeds (plugins, models). */
export function createCommandRoutes(app: App): Disposable & { handlers: Pick<Handlers, CommandChannels> } {
  const { tree } = app.commands;
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
    dispose: () => {},
  };
}
