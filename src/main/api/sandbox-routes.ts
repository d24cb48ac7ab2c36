import type { SandboxView } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type SandboxChannels = 'policy.sandbox' | 'policy.setNetwork';

/**
 * The shell sandbox over the API: whether one starts here (why not, and how to fix it) and the network
 * switch of write mode. Changes are announced by the sandbox's owner (as policy.changed), not here.
 */
export function createSandboxRoutes(app: App): Disposable & { handlers: Pick<Handlers, SandboxChannels> } {
  const { sandbox, sessions } = app;
  const view = async (sessionId: string | null): Promise<SandboxView> => {
    if (sessionId !== null) sessions.get(sessionId);
    const status = await sandbox.status();
    return {
      available: status.available,
      kind: status.available ? status.kind : null,
      reason: status.available ? null : status.reason,
      fix: status.available ? null : status.fix,
      network: sandbox.network(),
      sessionId,
      sessionNetwork: sessionId === null ? null : sandbox.sessionNetwork(sessionId),
    };
  };
  return {
    handlers: {
      'policy.sandbox': ({ sessionId }) => view(sessionId ?? null),
      'policy.setNetwork': ({ network, sessionId }) => {
        sandbox.setNetwork(network);
        return view(sessionId ?? null);
      },
    },
    dispose: () => {},
  };
}
