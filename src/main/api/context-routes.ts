import type { ContextMasking } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { assertIdle, describeContext } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import type { Handlers } from './api-router.ts';

type ContextChannels = 'context.masking' | 'context.setMasking' | 'context.view' | 'context.restore';

/**
 * How old tool output is hidden from each model request (the same settings as /set context.…), what the
 * model sees now on a branch, and going back from a compaction to the whole history.
 */
export function createContextRoutes(app: App): Disposable & { handlers: Pick<Handlers, ContextChannels> } {
  const read = (): ContextMasking => ({
    maskAfterTokens: app.settings.get('context.maskAfterTokens'),
    maskBatchTokens: app.settings.get('context.maskBatchTokens'),
  });
  return {
    handlers: {
      'context.masking': read,
      'context.setMasking': (changes) => {
        if (changes.maskAfterTokens !== undefined) app.settings.set('context.maskAfterTokens', changes.maskAfterTokens);
        if (changes.maskBatchTokens !== undefined) app.settings.set('context.maskBatchTokens', changes.maskBatchTokens);
        return read();
      },
      'context.view': async ({ sessionId }) => {
        const context = app.sessions.context(sessionId);
        const model = context.model ?? app.defaultModel();
        return describeContext({ context: { ...context, model }, masking: read(), window: model ? await app.contextWindow(model) : null });
      },
      'context.restore': ({ sessionId, compactionId }) => {
        const entry = app.sessions.entry(sessionId, compactionId);
        if (entry.type !== 'compaction') throw new AmberError('invalid_input', 'Only a compaction can be restored from: that entry is not one.');
        if (!app.sessions.path(sessionId).some((e) => e.id === compactionId))
          throw new AmberError('invalid_input', 'That compaction is not on the branch you are on; switch to its branch first.');
        assertIdle(app.agent, sessionId, 'restore the full history');
        // The compaction and what came after stay in the tree as a branch of their own.
        app.sessions.branch(sessionId, entry.parentId);
        return { leafId: entry.parentId };
      },
    },
    dispose: () => {},
  };
}
