import type { Message } from '../../shared/sessions/index.ts';
import { errorMessage } from '../errors.ts';
import { recallPrompt } from './recall-prompt.ts';

export interface PromptBlockContext {
  sessionId: string;
  signal: AbortSignal;
  /**
   * What the request is about (recall-prompt.ts): the latest user message and the turns before it, at most
   * RECALL_PROMPT_CHARS. Filled from the request's messages when absent.
   */
  prompt?: string;
}

/** A piece of prompt a plugin contributes: head blocks follow the system prompt, tail blocks the conversation. */
export interface PromptBlock {
  id: string;
  position: 'head' | 'tail';
  /** Lower first; ties keep insertion order. */
  priority: number;
  /** May throw or reject: the block is then skipped and reported; the turn goes on. */
  render(context: PromptBlockContext): string | Promise<string>;
}

export interface AssembledPrompt {
  systemPrompt: string;
  messages: Message[];
  failures: { blockId: string; error: string }[];
}

export interface AssembleInput {
  systemPrompt: string;
  blocks: readonly PromptBlock[];
  messages: readonly Message[];
  context: PromptBlockContext;
  /** A block that has not rendered by then is skipped and reported. */
  renderTimeoutMs?: number;
}

/**
 * The request's system prompt and messages: the system prompt, then the head blocks, joined by blank
 * lines; the conversation; then the tail blocks as one user message after it (sent, never persisted).
 * Blocks render in parallel; an empty render is left out.
 */
export async function assemblePrompt(input: AssembleInput): Promise<AssembledPrompt> {
  const timeoutMs = input.renderTimeoutMs ?? 10_000;
  const ordered = input.blocks.map((block, order) => ({ block, order })).sort((a, b) => a.block.priority - b.block.priority || a.order - b.order);
  const context: PromptBlockContext = { ...input.context, prompt: input.context.prompt ?? recallPrompt(input.messages) };
  const rendered = await Promise.all(ordered.map(({ block }) => renderOne(block, context, timeoutMs)));
  const failures: AssembledPrompt['failures'] = [];
  const head: string[] = [];
  const tail: string[] = [];
  rendered.forEach((r, i) => {
    const block = ordered[i]!.block;
    if (!r.ok) failures.push({ blockId: block.id, error: r.error });
    else if (r.text.trim() !== '') (block.position === 'head' ? head : tail).push(r.text);
  });
  const systemPrompt = [input.systemPrompt, ...head].filter((s) => s.trim() !== '').join('\n\n');
  const messages: Message[] = [...input.messages];
  if (tail.length > 0) messages.push({ role: 'user', content: tail.join('\n\n') });
  return { systemPrompt, messages, failures };
}

type Rendered = { ok: true; text: string } | { ok: false; error: string };

async function renderOne(block: PromptBlock, context: PromptBlockContext, timeoutMs: number): Promise<Rendered> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Rendered>((res) => {
    timer = setTimeout(() => res({ ok: false, error: `it did not render within ${timeoutMs} ms` }), timeoutMs);
  });
  const rendering = Promise.resolve()
    .then(() => block.render(context))
    .then(
      (text): Rendered => (typeof text === 'string' ? { ok: true, text } : { ok: false, error: 'it rendered something other than text' }),
      (e: unknown): Rendered => ({ ok: false, error: errorMessage(e) }),
    );
  try {
    return await Promise.race([rendering, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
