import { AmberError } from '../errors.ts';

/**
 * Refuses a change to a conversation while a reply runs in it, with the one sentence Amber says for that
 * (routes, commands and the agent itself); `doing` finishes it ("switch models").
 */
export function assertIdle(agent: { isRunning(sessionId: string): boolean }, sessionId: string, doing: string): void {
  if (agent.isRunning(sessionId))
    throw new AmberError('conflict', `A reply is still running in this conversation; stop it or wait for it before you ${doing}.`);
}
