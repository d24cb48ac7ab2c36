import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type SubagentChannels = 'subagents.list' | 'subagents.stop' | 'subagents.transcript' | 'subagents.settings' | 'subagents.setSettings';

/** The task tool's child agents over the API: their live rows, Stop per child, and a child's read-only transcript. */
export function createSubagentRoutes(app: App): Disposable & { handlers: Pick<Handlers, SubagentChannels> } {
  const { subagents, sessions } = app;
  return {
    handlers: {
      'subagents.list': (input) => {
        if ('toolCallId' in input) return subagents.viewsOfCall(input.toolCallId);
        sessions.get(input.sessionId);
        return subagents.views(input.sessionId);
      },
      'subagents.stop': ({ childSessionId }) => ({ stopped: subagents.stop(childSessionId) }),
      'subagents.transcript': ({ childSessionId }) => subagents.transcript(childSessionId),
      'subagents.settings': () => subagents.settings(),
      'subagents.setSettings': (changes) => subagents.setSettings(changes),
    },
    dispose: () => {},
  };
}
