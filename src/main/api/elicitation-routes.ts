import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ElicitationChannels = 'elicitations.list' | 'elicitations.answer';

/** Plugins' forms for the user (an MCP server's elicitation): the broker checks an answer and announces each change. */
export function createElicitationRoutes(app: App): Disposable & { handlers: Pick<Handlers, ElicitationChannels> } {
  return {
    handlers: {
      'elicitations.list': () => app.elicitations.pending(),
      'elicitations.answer': ({ questionId, answer }) => {
        app.elicitations.answer(questionId, answer);
        return { ok: true as const };
      },
    },
    dispose: () => {},
  };
}
