import type { AgentEvent } from '../../shared/agent/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { Event } from '../../shared/emitter.ts';
import { type AssistantMessage, contentText, type Message, type UserMessage } from '../../shared/sessions/index.ts';
import type { ModelRef, ProviderResolver } from './agent-loop.ts';
import { streamReply } from './stream-reply.ts';

export const TITLE_INSTRUCTIONS =
  'You name conversations. Reply with a short title for the conversation below: 3 to 6 words, in the language of the conversation, no quotes, no final punctuation, nothing else.';

/** What the titler needs of the sessions store: a conversation's title, its messages and the rename. */
export interface TitledSessions {
  get(sessionId: string): { title: string; parent?: unknown };
  context(sessionId: string): { messages: readonly Message[]; model: ModelRef | null };
  rename(sessionId: string, title: string): unknown;
}

export interface ConversationTitlerOptions {
  runs: Event<AgentEvent>;
  sessions: TitledSessions;
  resolveProvider: ProviderResolver;
  /** Whether titles are made (the `conversations.autoTitle` setting), read at each reply. */
  enabled(): boolean;
  defaultModel(): ModelRef | null;
  clock?: () => number;
  /** Told why a title could not be made. Must not throw. */
  log?: (message: string) => void;
}

/** A message's text as the title request quotes it: its first 1,500 characters. */
const excerpt = (m: UserMessage | AssistantMessage): string => contentText(m.content, { image: '[image]' }).slice(0, 1500);

/** The model's answer as a title: its first line, without quotes, list marks or a final stop; at most 8 words. */
export function cleanTitle(text: string): string {
  const line =
    text
      .replace(/<think>[\s\S]*?<\/think>/g, '')
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  const bare = line
    .replace(/^(title\s*:\s*)/i, '')
    .replace(/^[#*\-\s"'“”‘’`]+|["'“”‘’`*\s]+$/g, '')
    .replace(/[.!?:;,]+$/, '')
    .trim();
  return bare.split(/\s+/).slice(0, 8).join(' ').slice(0, 80);
}

/**
 * Gives a conversation a short title once its first reply is complete: a hidden request to the
 * conversation's model (nothing is stored in the conversation), then a rename, which the store announces
 * (the window hears it as session.updated). A conversation that has a title already — the user named it,
 * or a title was made before — is left alone, and so is a child agent's.
 */
export class ConversationTitler implements Disposable {
  readonly #options: ConversationTitlerOptions;
  readonly #pending = new Set<string>();
  readonly #controller = new AbortController();
  readonly #subscription: Disposable;

  constructor(options: ConversationTitlerOptions) {
    this.#options = options;
    this.#subscription = options.runs((event) => {
      if (event.type === 'agent_end' && event.reason === 'stop') void this.title(event.sessionId);
    });
  }

  /** Makes and sets a title when the conversation has none yet; resolves with it, or null. Never rejects. */
  async title(sessionId: string): Promise<string | null> {
    if (this.#pending.has(sessionId) || !this.#untitled(sessionId)) return null;
    this.#pending.add(sessionId);
    try {
      return await this.#make(sessionId);
    } catch (e) {
      this.#options.log?.(`Could not title the conversation ${sessionId}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      this.#pending.delete(sessionId);
    }
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#controller.abort();
  }

  #untitled(sessionId: string): boolean {
    if (!this.#options.enabled()) return false;
    try {
      const summary = this.#options.sessions.get(sessionId);
      return summary.title === '' && summary.parent === undefined;
    } catch {
      return false;
    }
  }

  async #make(sessionId: string): Promise<string | null> {
    const context = this.#options.sessions.context(sessionId);
    const user = context.messages.find((m): m is UserMessage => m.role === 'user');
    const reply = context.messages.find((m): m is AssistantMessage => m.role === 'assistant' && m.stopReason !== 'error' && m.stopReason !== 'aborted');
    if (!user || !reply) return null;
    const ref = context.model ?? this.#options.defaultModel();
    if (!ref) return null;
    const provider = await this.#options.resolveProvider(ref);
    const clock = this.#options.clock ?? Date.now;
    const answer = await streamReply({
      stream: provider.stream,
      request: {
        model: provider.model,
        systemPrompt: TITLE_INSTRUCTIONS,
        messages: [{ role: 'user', content: `User: ${excerpt(user)}\n\nAssistant: ${excerpt(reply)}\n\nTitle:`, timestamp: clock() }],
        tools: [],
        thinkingLevel: null,
        maxTokens: 40,
      },
      signal: AbortSignal.any([this.#controller.signal, AbortSignal.timeout(30_000)]),
      provider: ref.provider,
      clock,
      onDelta: () => {},
    });
    if (answer.errorKind !== null) throw new Error(answer.message.errorMessage ?? answer.errorKind);
    const title = cleanTitle(contentText(answer.message.content));
    // The user may have named it meanwhile: their title stays.
    if (!title || !this.#untitled(sessionId)) return null;
    this.#options.sessions.rename(sessionId, title);
    return title;
  }
}
