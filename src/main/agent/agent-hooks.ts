import type { HookFailure, HookPayloads, HookPoint } from '../../shared/plugins/hooks.ts';

/**
 * The plugins' hooks as the agent sees them (the plugin runtime's hook registry, passed in by the
 * composition root). `run` calls the hooks of one point in load order and never throws: a hook that fails
 * is skipped and told to `onError`.
 */
export interface AgentHooks {
  run<P extends HookPoint>(
    point: P,
    payload: HookPayloads[P],
    options: { onError(failure: HookFailure): void },
  ): Promise<{ payload: HookPayloads[P]; stop?: { pluginId: string; reason: string } }>;
}

/** No plugin hooks anything: every payload passes through unchanged. */
export const noHooks: AgentHooks = {
  run: async (_point, payload) => ({ payload }),
};

/** Hooks bound to one run: failures become that run's extension_error events. */
export interface RunHooks {
  hooks: AgentHooks;
  onError(failure: HookFailure): void;
}

/** The text of a user message's content (text parts joined), as the input hook sees it. */
export function contentText(content: string | readonly { type: string; text?: string }[]): string {
  return typeof content === 'string' ? content : content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : '')).join('');
}
