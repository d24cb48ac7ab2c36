import type { ApprovalAnswer, ApprovalQuestion, ApprovalReply, ApprovalScope } from '../../shared/agent/index.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError } from '../errors.ts';
import { QuestionWithdrawn } from './tool-gate.ts';

interface Pending {
  question: ApprovalQuestion;
  resolve: (reply: ApprovalReply) => void;
}

export type ApprovalChange = { kind: 'requested'; question: ApprovalQuestion } | { kind: 'settled'; questionId: string; answer: ApprovalAnswer };

/**
 * Carries the policy's approval questions to the window and its answers back. A question waits for an
 * answer whether or not a window is connected (up to the policy's approval timeout, when one is set); a
 * window that connects later reads it from `pending()`. A run with no one to ask at all (a scripted run)
 * has no broker attached: the policy denies at once.
 * A withdrawn question (its run stopped, or a grant now decides the call) is settled and taken off the
 * window: as "once" when the call now runs without asking, else as "deny".
 */
export class ApprovalBroker {
  readonly #pending = new Map<string, Pending>();
  // A listener's failure must not keep the question from the others.
  readonly #changed = new Emitter<ApprovalChange>();
  /** A question was put to the user, or settled (answered here or in another window, or withdrawn). */
  readonly onDidChange: Event<ApprovalChange> = this.#changed.event;

  /** The policy's Approver: resolves when the user answers or the question is withdrawn. */
  readonly ask = (question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalReply> => {
    if (signal.aborted) return Promise.resolve({ answer: 'deny' });
    return new Promise<ApprovalReply>((resolve) => {
      const onAbort = () => this.#settle(question.id, signal.reason instanceof QuestionWithdrawn ? signal.reason.outcome : 'deny');
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(question.id, {
        question,
        resolve: (reply) => {
          signal.removeEventListener('abort', onAbort);
          resolve(reply);
        },
      });
      this.#notify({ kind: 'requested', question });
    });
  };

  pending(): ApprovalQuestion[] {
    return [...this.#pending.values()].map((p) => p.question);
  }

  /**
   * Refuses "run unsandboxed" for a question that did not offer it (the question stays open). `scope`: where
   * an "always" answer holds (default: the conversation's workspace folder).
   */
  answer(questionId: string, answer: ApprovalAnswer, scope?: ApprovalScope): void {
    const pending = this.#pending.get(questionId);
    if (!pending) throw new AmberError('not_found', 'That question was already answered, or its run has ended.');
    if (answer === 'unsandboxed' && pending.question.sandboxed !== true) {
      throw new AmberError('invalid_input', 'Only a shell command that would run in the sandbox can be run outside it; answer this question another way.');
    }
    this.#settle(questionId, answer, scope);
  }

  /** Denies every open question (shutdown). */
  dispose(): void {
    for (const id of this.#pending.keys()) this.#settle(id, 'deny');
    this.#changed.dispose();
  }

  #settle(questionId: string, answer: ApprovalAnswer, scope?: ApprovalScope): void {
    const p = this.#pending.get(questionId);
    if (!p) return;
    this.#pending.delete(questionId);
    p.resolve(scope ? { answer, scope } : { answer });
    this.#notify({ kind: 'settled', questionId, answer });
  }

  #notify(change: ApprovalChange): void {
    this.#changed.fire(change);
  }
}
