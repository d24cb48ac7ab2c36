import { z } from 'zod';
import { Message } from '../sessions/index.ts';
import { ToolOutput } from '../tools/index.ts';

// Interception points: calls into the plugins that declared a hook, in load order, each seeing the
// previous one's change. The payloads are what main sends; the results are what a plugin answers, checked
// here on arrival (a result in the wrong shape is an extension error and the hook is skipped).

export const HOOK_POINTS = ['input', 'before_agent_start', 'context', 'tool_call', 'tool_result'] as const;
export const HookPoint = z.enum(HOOK_POINTS);
export type HookPoint = z.infer<typeof HookPoint>;

/** The most text a hook may put in the prompt or the user's message (as much as a prompt block). */
export const MAX_HOOK_TEXT_CHARS = 32_768;
/** The most messages `before_agent_start` may add, all hooks together. */
export const MAX_HOOK_MESSAGES = 16;

/** What each point's hooks see. A hook answers nothing (no change) or its point's result. */
export interface HookPayloads {
  /** The text of the message that starts a run, before it is stored. */
  input: { sessionId: string; text: string };
  /** Once per run, after the user's message is stored: `systemPrompt` and `messages` are what earlier hooks added. */
  before_agent_start: { sessionId: string; prompt: string; systemPrompt: string; messages: string[] };
  /** The messages of one model call, just before it is made; the stored session is never changed. */
  context: { sessionId: string; messages: Message[] };
  /** A tool call whose arguments passed its schema, before the policy judges it. */
  tool_call: { sessionId: string; toolCallId: string; toolName: string; args: Record<string, unknown> };
  /** A tool's result, before it is stored and sent to the model. */
  tool_result: { sessionId: string; toolCallId: string; toolName: string; args: Record<string, unknown>; result: ToolOutput };
}

const HookText = z.string().max(MAX_HOOK_TEXT_CHARS, `a hook's text is at most ${MAX_HOOK_TEXT_CHARS.toLocaleString('en')} characters`);

export const InputHookResult = z.object({
  /** The text that replaces the user's. */
  text: HookText.optional(),
  /** True: the message is handled by the plugin and not sent to the model; `reason` tells the user why. */
  swallow: z.boolean().optional(),
  reason: z.string().max(2000).optional(),
});
export const BeforeAgentStartHookResult = z.object({
  /** Text added to the end of the run's system prompt. */
  systemPrompt: HookText.optional(),
  /** Messages added after the user's, for the model (stored, not shown). */
  messages: z.array(HookText).max(MAX_HOOK_MESSAGES, `a hook adds at most ${MAX_HOOK_MESSAGES} messages`).optional(),
});
export const ContextHookResult = z.object({ messages: z.array(Message).optional() });
export const ToolCallHookResult = z.object({
  /** True: the call is not run; the model and the user read `reason`. */
  block: z.boolean().optional(),
  reason: z.string().max(2000).optional(),
  /** Arguments that replace the model's: checked against the tool's schema and judged by the policy again. */
  args: z.record(z.string(), z.unknown()).optional(),
});
export const ToolResultHookResult = z.object({ result: ToolOutput.optional() });

export const HOOK_RESULTS = {
  input: InputHookResult,
  before_agent_start: BeforeAgentStartHookResult,
  context: ContextHookResult,
  tool_call: ToolCallHookResult,
  tool_result: ToolResultHookResult,
} satisfies Record<HookPoint, z.ZodType>;

export interface HookResults {
  input: z.infer<typeof InputHookResult>;
  before_agent_start: z.infer<typeof BeforeAgentStartHookResult>;
  context: z.infer<typeof ContextHookResult>;
  tool_call: z.infer<typeof ToolCallHookResult>;
  tool_result: z.infer<typeof ToolResultHookResult>;
}

/**
 * The points where a hook that throws, times out or answers in the wrong shape blocks what it guards
 * instead of being skipped (fails closed): a tool_call hook may be the guard that keeps a call from
 * running, so a guard that cannot answer must not wave the call through. A hook declared `advisory` fails
 * open there too. The other points change text or context (or, tool_result, a result of a call that has
 * already run): a failure there is skipped and reported, and the run goes on.
 */
export const FAIL_CLOSED_POINTS: readonly HookPoint[] = ['tool_call'];

/** How long a hook may take before it fails (its plugin is told nothing; its answer is ignored). */
export const DEFAULT_HOOK_TIMEOUT_MS: Record<HookPoint, number> = {
  input: 5_000,
  before_agent_start: 5_000,
  context: 5_000,
  tool_call: 10_000,
  tool_result: 10_000,
};

/** A hook that threw, timed out or answered in the wrong shape: it was skipped (or, failing closed, blocked the call). */
export interface HookFailure {
  pluginId: string;
  hook: HookPoint;
  message: string;
}
