import type { ApprovalAnswer, ApprovalQuestion } from '../../shared/agent/index.ts';
import { AmberError } from '../errors.ts';

interface Pending {
  question: ApprovalQuestion;
  resolve: (answer: ApprovalAnswer) => void;
}

export interface ApprovalBrokerEvents {
  requested(question: ApprovalQuestion): void;
  settled(questionId: string, answer: ApprovalAnswer): void;
}

/**
 * Carries the policy's approval questions to the window and its answers back. A question whose run is
 * aborted is settled as "deny" and taken off the window.
 */
export class ApprovalBroker {
  readonly #pending = new Map<string, Pending>();
  readonly #events: ApprovalBrokerEvents;

  constructor(events: ApprovalBrokerEvents) {
    this.#events = events;
  }

  /** The policy's Approver: resolves when the user answers or the run is aborted (deny). */
  readonly ask = (question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalAnswer> => {
    if (signal.aborted) return Promise.resolve('deny');
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => this.#settle(question.id, 'deny');
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(question.id, {
        question,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.#events.requested(question);
    });
  };

  pending(): ApprovalQuestion[] {
    return [...this.#pending.values()].map((p) => p.question);
  }

  answer(questionId: string, answer: ApprovalAnswer): void {
    if (!this.#pending.has(questionId)) throw new AmberError('not_found', 'That question was already answered, or its run has ended.');
    this.#settle(questionId, answer);
  }

  /** Denies every open question (shutdown). */
  dispose(): void {
    for (const id of this.#pending.keys()) this.#settle(id, 'deny');
  }

  #settle(questionId: string, answer: ApprovalAnswer): void {
    const p = this.#pending.get(questionId);
    if (!p) return;
    this.#pending.delete(questionId);
    p.resolve(answer);
    this.#events.settled(questionId, answer);
  }
}
