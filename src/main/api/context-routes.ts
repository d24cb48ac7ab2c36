import type { ContextMasking } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ContextChannels = 'context.masking' | 'context.setMasking';

/** How old tool output is hidden from each model request, over the API (the same settings as /set context.…). */
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
    },
    dispose: () => {},
  };
}
