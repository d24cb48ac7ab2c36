import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAnswer, ElicitationField } from '../../shared/elicitation/index.ts';
import { elicitationFields } from './elicitation-fields.ts';
import type { RunningCall } from './mcp-connection.ts';

// A server's `elicitation/create` (form mode): its schema becomes the fields of a form the user fills, asked
// through the handler the connection was given; the answer (accept with the values, decline, cancel) goes back
// to the server. The server's request names no call, so it is tied to the newest call to that server still
// running (servers ask while a tool runs), or to none; the form is withdrawn when the server cancels its
// request or that call is stopped.

/** What the user is asked: by which server, why, the form, and the running tool call (main's id) it belongs to. */
export interface McpElicitation {
  server: string;
  message: string;
  fields: ElicitationField[];
  callId?: string;
}

/** Asks the user; `signal` aborts when the server cancels its request. Never rejects for a user's "no": that is `decline`. */
export type McpElicitationHandler = (request: McpElicitation, signal: AbortSignal) => Promise<ElicitationAnswer>;

export function answerElicitations(client: Client, server: string, handler: McpElicitationHandler, runningCalls: () => readonly RunningCall[]): void {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params;
    // Only form mode is declared; the SDK refuses the others before they come here.
    if (params.mode !== undefined && params.mode !== 'form') return { action: 'decline' };
    let fields: ElicitationField[];
    try {
      fields = elicitationFields(params.requestedSchema);
    } catch (e) {
      throw new McpError(ErrorCode.InvalidParams, e instanceof Error ? e.message : String(e));
    }
    const call = runningCalls().at(-1);
    const signal = call?.signal ? AbortSignal.any([extra.signal, call.signal]) : extra.signal;
    // The call's time limit waits while the user fills the form.
    call?.pause();
    try {
      const answer = await handler({ server, message: params.message, fields, ...(call?.callId ? { callId: call.callId } : {}) }, signal);
      return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
    } finally {
      call?.resume();
    }
  });
}
