import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ConversationChannels = 'conversations.settings' | 'conversations.setAutoTitle';

/** The conversations' own settings over the API: whether their model titles them after the first reply. */
export function createConversationRoutes(app: App): Disposable & { handlers: Pick<Handlers, ConversationChannels> } {
  return {
    handlers: {
      'conversations.settings': () => ({ autoTitle: app.settings.get('conversations.autoTitle') }),
      'conversations.setAutoTitle': ({ autoTitle }) => {
        app.settings.set('conversations.autoTitle', autoTitle);
        return { autoTitle: app.settings.get('conversations.autoTitle') };
      },
    },
    dispose: () => {},
  };
}
