import { z } from 'zod';
import { HookPoint } from '../plugins/index.ts';
import { Entry } from '../sessions/index.ts';

const base = { sessionId: z.string(), runId: z.string() };

export const AgentEndReason = z.enum(['stop', 'aborted', 'error', 'max_iterations', 'loop_detected', 'recovery_stop', 'blocked']);
export type AgentEndReason = z.infer<typeof AgentEndReason>;

export const MessageDelta = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('thinking'), text: z.string() }),
  z.object({ kind: z.literal('toolcall'), index: z.number().int(), id: z.string().optional(), name: z.string().optional(), argumentsDelta: z.string() }),
]);
export type MessageDelta = z.infer<typeof MessageDelta>;

/** What a run tells the renderer and plugins, in order. Entries carried here are already persisted. */
export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('agent_start') }),
  z.object({ ...base, type: z.literal('turn_start'), turn: z.number().int() }),
  z.object({ ...base, type: z.literal('message_start'), role: z.literal('assistant') }),
  z.object({ ...base, type: z.literal('message_update'), delta: MessageDelta }),
  z.object({ ...base, type: z.literal('message_end'), entry: Entry }),
  z.object({ ...base, type: z.literal('tool_execution_start'), toolCallId: z.string(), toolName: z.string(), args: z.unknown() }),
  z.object({ ...base, type: z.literal('tool_execution_update'), toolCallId: z.string(), text: z.string() }),
  z.object({ ...base, type: z.literal('tool_execution_end'), toolCallId: z.string(), status: z.enum(['ok', 'error', 'denied']), entry: Entry }),
  /** Any other entry the run persisted: the user prompt, steering and follow-up messages, compactions. */
  z.object({ ...base, type: z.literal('entry_appended'), entry: Entry }),
  z.object({ ...base, type: z.literal('turn_end'), turn: z.number().int() }),
  z.object({ ...base, type: z.literal('agent_end'), reason: AgentEndReason, error: z.string().optional() }),
  /**
   * Something the run worked around and a person may want to know, for example a prompt block that failed to render
   * (code 'prompt_block_failed'), a compaction that failed and left the session as it was
   * ('compaction_failed'), a recovery steer sent to the model ('recovery_steer'), tools that could not be listed
   * ('tools_unavailable'), a provider's notice such as a budget nearly used up ('provider_notice').
   */
  z.object({ ...base, type: z.literal('notice'), code: z.string(), message: z.string() }),
  /**
   * The run asks the model, without showing it, whether the task is finished (the silent confirm turn): the
   * window says "checking whether the task is done" until the next reply starts or the run ends.
   */
  z.object({ ...base, type: z.literal('confirm_start') }),
  /** The run is over and every write is done: the session may be read or run again. */
  z.object({ ...base, type: z.literal('agent_settled') }),
  /**
   * A plugin's hook threw, timed out or answered in the wrong shape: it was skipped and the run went on. The
   * window shows it once per plugin and run.
   */
  z.object({ ...base, type: z.literal('extension_error'), pluginId: z.string(), hook: HookPoint, message: z.string() }),
  /** A conversation was opened in the window: 'open' when it has no messages yet, 'resume' when it has. Not part of a run: `runId` is ''. */
  z.object({ ...base, type: z.literal('session_start'), reason: z.enum(['open', 'resume']) }),
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
