import { type AssistantMessage, contentText, type ToolCall, type ToolResultMessage } from '../../shared/sessions/index.ts';
import { callSignature } from './tool-dispatcher.ts';

export type RecoveryAction = { kind: 'steer'; text: string } | { kind: 'stop'; reason: 'loop_detected' | 'recovery_stop'; message: string };

export interface RecoveryLimits {
  /** This many identical tool-call sets in a row stop the run (loop detected). */
  identicalToolRounds: number;
  /** The same reply text this many times draws a steer … */
  repeatedReplySteer: number;
  /** … and this many times stops the run. */
  repeatedReplyStop: number;
  /** This many tool failures in a row (error or denied) draw a recovery steer … */
  failureSteer: number;
  /** … and this many stop the run. */
  failureStop: number;
}

export const DEFAULT_RECOVERY_LIMITS: RecoveryLimits = { identicalToolRounds: 3, repeatedReplySteer: 2, repeatedReplyStop: 5, failureSteer: 3, failureStop: 6 };

export function replyText(message: AssistantMessage): string {
  return contentText(message.content).replace(/\s+/g, ' ').trim();
}

export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((c): c is ToolCall => c.type === 'toolCall');
}

/** Watches one run for a model that is stuck, and says when to steer it and when to give up. */
export class RecoveryMonitor {
  readonly #limits: RecoveryLimits;
  #lastCallSet: string | null = null;
  #identicalRounds = 0;
  readonly #replies = new Map<string, number>();
  #failures = 0;

  constructor(limits: Partial<RecoveryLimits> = {}) {
    this.#limits = { ...DEFAULT_RECOVERY_LIMITS, ...limits };
  }

  /** Judges a reply before its tool calls run; a stop means none of them should run. */
  onReply(message: AssistantMessage): RecoveryAction[] {
    const actions: RecoveryAction[] = [];
    const calls = toolCallsOf(message);
    if (calls.length === 0) {
      this.#lastCallSet = null;
      this.#identicalRounds = 0;
    } else {
      const set = calls.map(callSignature).sort().join('\n');
      this.#identicalRounds = set === this.#lastCallSet ? this.#identicalRounds + 1 : 1;
      this.#lastCallSet = set;
      if (this.#identicalRounds >= this.#limits.identicalToolRounds) {
        actions.push({
          kind: 'stop',
          reason: 'loop_detected',
          message: `The model made the same tool calls ${this.#identicalRounds} times in a row, so the run was stopped (loop detected).`,
        });
      }
    }
    const text = replyText(message);
    if (text !== '') {
      const count = (this.#replies.get(text) ?? 0) + 1;
      this.#replies.set(text, count);
      if (count >= this.#limits.repeatedReplyStop) {
        actions.push({ kind: 'stop', reason: 'recovery_stop', message: `The model gave the same reply ${count} times, so the run was stopped.` });
      } else if (count >= this.#limits.repeatedReplySteer) {
        actions.push({
          kind: 'steer',
          text: `You have now given this exact reply ${count} times. Do not repeat it: take a different approach, or say plainly what is blocking you.`,
        });
      }
    }
    return actions;
  }

  /** Judges a round of tool results (in call order). */
  onResults(results: readonly ToolResultMessage[]): RecoveryAction | null {
    let crossedSteer = false;
    for (const r of results) {
      const failed = r.status !== undefined ? r.status !== 'ok' : r.isError;
      this.#failures = failed ? this.#failures + 1 : 0;
      if (this.#failures === this.#limits.failureSteer) crossedSteer = true;
      if (this.#failures >= this.#limits.failureStop) {
        return { kind: 'stop', reason: 'recovery_stop', message: `${this.#failures} tool calls failed in a row, so the run was stopped.` };
      }
    }
    // A streak that reached the steer mark and then broke within the round needs no steer.
    if (crossedSteer && this.#failures >= this.#limits.failureSteer) {
      return {
        kind: 'steer',
        text: `Your last ${this.#limits.failureSteer} tool calls failed. Stop and read the errors above, check your assumptions (names, paths, arguments), and change your approach before trying again.`,
      };
    }
    return null;
  }
}
