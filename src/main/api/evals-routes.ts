import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { EvalLibrary } from '../evals/index.ts';
import type { Handlers } from './api-router.ts';

type EvalsChannels = 'evals.list' | 'evals.get';

/** The evals `amber eval` ran, read from their folders for the window's Evals view. */
export function createEvalsRoutes(app: App): Disposable & { handlers: Pick<Handlers, EvalsChannels> } {
  const library = new EvalLibrary(app.dataDir);
  return {
    handlers: {
      'evals.list': () => ({ evals: library.list() }),
      'evals.get': ({ evalId, offset, limit }) => library.get(evalId, offset, limit),
    },
    dispose: () => {},
  };
}
