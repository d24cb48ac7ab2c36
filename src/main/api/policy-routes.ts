import type { EventName, EventPayload, PolicyView } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import { userReadOnlyTools } from '../agent-bridge/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import type { Handlers } from './api-router.ts';

export interface PolicyRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

type PolicyChannels = 'policy.get' | 'policy.setMode' | 'policy.removeRule' | 'policy.confirmReadOnly';

/** The tool policy over the API: each session's mode, the stored rules, the user plugins' read-only claims. */
export function createPolicyRoutes(app: App, options: PolicyRoutesOptions): Disposable & { handlers: Pick<Handlers, PolicyChannels> } {
  const { plugins, sessions, policy } = app;
  const emit = options.emit;
  const isBundled = (id: string): boolean => plugins.list().some((p) => p.id === id && p.source === 'bundled');
  const policyView = (sessionId: string | null): PolicyView => {
    const claims = userReadOnlyTools(plugins.registries.tools, isBundled);
    const readOnlyClaims = plugins
      .list()
      .filter((p) => p.source === 'user' && (claims.has(p.id) || policy.readOnlyConfirmed(p.id)))
      .map((p) => ({ pluginId: p.id, name: p.name, tools: claims.get(p.id) ?? [], confirmed: policy.readOnlyConfirmed(p.id) }));
    return { sessionId, mode: sessionId ? policy.mode(sessionId) : 'write', rules: policy.rules(), readOnlyClaims };
  };
  return {
    handlers: {
      'policy.get': ({ sessionId }) => policyView(sessionId ?? null),
      'policy.setMode': ({ sessionId, mode }) => {
        sessions.get(sessionId);
        policy.setMode(sessionId, mode);
        emit('policy.changed', { sessionId });
        return policyView(sessionId);
      },
      'policy.removeRule': ({ index, rule, sessionId }) => {
        const rules = policy.rules();
        const at = rules[index];
        if (!at || at.effect !== rule.effect || at.tool !== rule.tool || at.folder !== rule.folder) {
          throw new AmberError('conflict', 'The rules changed meanwhile (another window?); look at the list again and retry.');
        }
        policy.setRules(rules.filter((_, i) => i !== index));
        emit('policy.changed', { sessionId: null });
        return policyView(sessionId ?? null);
      },
      'policy.confirmReadOnly': ({ pluginId, confirmed, sessionId }) => {
        const plugin = plugins.list().find((p) => p.id === pluginId);
        if (!plugin || plugin.source !== 'user') throw new AmberError('not_found', `There is no user plugin '${pluginId}'; bundled plugins need no confirmation.`);
        policy.setReadOnlyConfirmed(pluginId, confirmed);
        emit('policy.changed', { sessionId: null });
        return policyView(sessionId ?? null);
      },
    },
    dispose: () => {},
  };
}
