import type { PolicyView } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import { userReadOnlyTools } from '../agent-bridge/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import type { Handlers } from './api-router.ts';

type PolicyChannels = 'policy.get' | 'policy.setMode' | 'policy.removeRule' | 'policy.setApprovalTimeout' | 'policy.confirmReadOnly';

/**
 * The tool policy over the API: each session's mode, the stored rules with where they came from, the
 * approval timeout, the user plugins' read-only claims. The policy announces its own changes (an "always"
 * answer's rule included); they go out as policy.changed.
 */
export function createPolicyRoutes(app: App): Disposable & { handlers: Pick<Handlers, PolicyChannels> } {
  const { plugins, sessions, policy } = app;
  /** The title of each conversation a rule came from (its first words when untitled); null for one since deleted. */
  const ruleSessions = (rules: ReturnType<typeof policy.rules>): Record<string, string | null> => {
    const titles: Record<string, string | null> = {};
    for (const id of new Set(rules.flatMap((r) => (r.source?.sessionId ? [r.source.sessionId] : [])))) {
      try {
        const summary = sessions.get(id);
        titles[id] = summary.title.trim() || summary.preview.replace(/\s+/g, ' ').trim().slice(0, 80);
      } catch {
        titles[id] = null;
      }
    }
    return titles;
  };
  const isBundled = (id: string): boolean => plugins.list().some((p) => p.id === id && p.source === 'bundled');
  const policyView = (sessionId: string | null): PolicyView => {
    const claims = userReadOnlyTools(plugins.registries.tools, isBundled);
    const readOnlyClaims = plugins
      .list()
      .filter((p) => p.source === 'user' && (claims.has(p.id) || policy.readOnlyConfirmed(p.id)))
      .map((p) => ({ pluginId: p.id, name: p.name, tools: claims.get(p.id) ?? [], confirmed: policy.readOnlyConfirmed(p.id) }));
    const rules = policy.rules();
    return {
      sessionId,
      mode: sessionId ? policy.mode(sessionId) : 'write',
      rules,
      ruleSessions: ruleSessions(rules),
      approvalTimeoutSeconds: policy.approvalTimeout(),
      readOnlyClaims,
    };
  };
  return {
    handlers: {
      'policy.get': ({ sessionId }) => policyView(sessionId ?? null),
      'policy.setMode': ({ sessionId, mode }) => {
        sessions.get(sessionId);
        policy.setMode(sessionId, mode);
        return policyView(sessionId);
      },
      'policy.removeRule': ({ id, sessionId }) => {
        policy.removeRule(id);
        return policyView(sessionId ?? null);
      },
      'policy.setApprovalTimeout': ({ seconds, sessionId }) => {
        policy.setApprovalTimeout(seconds);
        return policyView(sessionId ?? null);
      },
      'policy.confirmReadOnly': ({ pluginId, confirmed, sessionId }) => {
        const plugin = plugins.list().find((p) => p.id === pluginId);
        if (!plugin || plugin.source !== 'user')
          throw new AmberError('not_found', `There is no user plugin '${pluginId}'; bundled plugins need no confirmation.`);
        policy.setReadOnlyConfirmed(pluginId, confirmed);
        return policyView(sessionId ?? null);
      },
    },
    dispose: () => {},
  };
}
