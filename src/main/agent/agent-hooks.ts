import type { HookFailure, HookPayloads, HookPoint } from '../../shared/plugins/index.ts';
import { contentText, type UserMessage } from '../../shared/sessions/index.ts';

/**
 * The plugins' hooks as the agent sees them (the plugin runtime's hook registry, passed in by the
 * composition root). `run` calls the hooks of one point in load order and never throws: a hook that fails
 * is skipped and told to `onError`, except a tool_call hook, whose failure blocks the call (`stop` with
 * `failed`) unless it is declared advisory.
 */
export interface AgentHooks {
  run<P extends HookPoint>(
    point: P,
    payload: HookPayloads[P],
    options: { onError(failure: HookFailure): void },
  ): Promise<{ payload: HookPayloads[P]; stop?: { pluginId: string; reason: string; failed?: boolean } }>;
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

/**
 * The input hooks over a user message's text: its content with the text they left (images kept), or the
 * reason one of them handled the message itself (it is then neither stored nor sent).
 */
export async function applyInputHooks(
  run: RunHooks,
  sessionId: string,
  content: UserMessage['content'],
): Promise<{ content: UserMessage['content']; swallowed?: string }> {
  const text = contentText(content);
  const out = await run.hooks.run('input', { sessionId, text }, run);
  if (out.stop) return { content, swallowed: out.stop.reason };
  if (out.payload.text === text) return { content };
  if (typeof content === 'string') return { content: out.payload.text };
  return { content: [{ type: 'text', text: out.payload.text }, ...content.filter((c) => c.type !== 'text')] };
}
