import { randomUUID } from 'node:crypto';
import {
  checkElicitation,
  type ElicitationAnswer,
  type ElicitationQuestion,
  type ElicitationRequest,
  type ElicitationValue,
} from '../../shared/elicitation/index.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError } from '../errors.ts';

// Carries plugins' forms (an MCP server's elicitation) to the window and the user's answers back, as the
// approval broker carries the policy's questions. A form waits for an answer whether or not a window is
// connected; a window that connects later reads it from `pending()`. Where no one can be asked (a core for
// `amber run` or an eval, a scheduled task's run: PolicyService.canAsk) a form is declined at once.

export type ElicitationChange =
  | { kind: 'requested'; question: ElicitationQuestion }
  | { kind: 'settled'; questionId: string; action: ElicitationAnswer['action'] };

interface Pending {
  question: ElicitationQuestion;
  requestId: string;
  resolve: (answer: ElicitationAnswer) => void;
}

export interface ElicitationBrokerOptions {
  /** Whether anyone can be asked about the conversation (none: a form outside a call); where not, forms are declined at once. */
  canAsk: (sessionId: string | undefined) => boolean;
  newId?: () => string;
}

export class ElicitationBroker {
  readonly #pending = new Map<string, Pending>();
  readonly #canAsk: (sessionId: string | undefined) => boolean;
  readonly #newId: () => string;
  // A listener's failure must not keep the form from the others.
  readonly #changed = new Emitter<ElicitationChange>();
  /** A form was put to the user, or settled (answered, withdrawn by its asker, or its plugin stopped). */
  readonly onDidChange: Event<ElicitationChange> = this.#changed.event;

  constructor(options: ElicitationBrokerOptions) {
    this.#canAsk = options.canAsk;
    this.#newId = options.newId ?? randomUUID;
  }

  /** Puts a plugin's form to the user; resolves with the answer, or cancel when it is withdrawn. */
  ask(pluginId: string, request: ElicitationRequest, call: { sessionId?: string; toolName?: string } = {}): Promise<ElicitationAnswer> {
    if (!this.#canAsk(call.sessionId)) return Promise.resolve({ action: 'decline' });
    // The same request asked again replaces the first (which is answered as cancelled).
    for (const [id, p] of this.#pending) if (p.question.pluginId === pluginId && p.requestId === request.requestId) this.#settle(id, { action: 'cancel' });
    const question: ElicitationQuestion = {
      id: this.#newId(),
      pluginId,
      source: request.source,
      message: request.message,
      fields: request.fields,
      ...(call.sessionId ? { sessionId: call.sessionId } : {}),
      ...(call.toolName ? { toolName: call.toolName } : {}),
    };
    return new Promise<ElicitationAnswer>((resolve) => {
      this.#pending.set(question.id, { question, requestId: request.requestId, resolve });
      this.#changed.fire({ kind: 'requested', question });
    });
  }

  pending(): ElicitationQuestion[] {
    return [...this.#pending.values()].map((p) => p.question);
  }

  /**
   * The user's answer. Accept is checked against the form: a value missing, of the wrong kind or out of its
   * limits is refused with a sentence naming the field, and the form stays open.
   */
  answer(questionId: string, answer: { action: 'accept'; content: Record<string, ElicitationValue> } | { action: 'decline' | 'cancel' }): void {
    const pending = this.#pending.get(questionId);
    if (!pending) throw new AmberError('not_found', 'That form was already answered, or whoever asked no longer waits for it.');
    if (answer.action !== 'accept') return this.#settle(questionId, { action: answer.action });
    const checked = checkElicitation(pending.question.fields, answer.content);
    if (!checked.ok) {
      const [name, why] = Object.entries(checked.problems)[0]!;
      const field = pending.question.fields.find((f) => f.name === name);
      throw new AmberError('invalid_input', `The form cannot be sent: ${field?.title ?? name}: ${why}`);
    }
    this.#settle(questionId, { action: 'accept', content: checked.content });
  }

  /** The asker gave up on its form (the server cancelled its request): it leaves the window. */
  cancel(pluginId: string, requestId: string): void {
    for (const [id, p] of this.#pending) if (p.question.pluginId === pluginId && p.requestId === requestId) this.#settle(id, { action: 'cancel' });
  }

  /** The plugin stopped: its forms leave the window. */
  withdrawAll(pluginId: string): void {
    for (const [id, p] of this.#pending) if (p.question.pluginId === pluginId) this.#settle(id, { action: 'cancel' });
  }

  /** Cancels every open form (shutdown). */
  dispose(): void {
    for (const id of this.#pending.keys()) this.#settle(id, { action: 'cancel' });
    this.#changed.dispose();
  }

  #settle(questionId: string, answer: ElicitationAnswer): void {
    const p = this.#pending.get(questionId);
    if (!p) return;
    this.#pending.delete(questionId);
    p.resolve(answer);
    this.#changed.fire({ kind: 'settled', questionId, action: answer.action });
  }
}
