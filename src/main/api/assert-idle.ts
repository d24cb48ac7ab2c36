import type { AgentService } from '../agent/index.ts';
import { AmberError } from '../errors.ts';

/** Refuses a change to a conversation while a reply streams in it; `doing` finishes the sentence. */
export function assertIdle(agent: Pick<AgentService, 'isRunning'>, sessionId: string, doing: string): void {
  if (agent.isRunning(sessionId)) throw new AmberError('conflict', `A reply is still streaming in this conversation; stop it or wait for it before you ${doing}.`);
}
