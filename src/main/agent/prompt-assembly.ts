import { z } from 'zod';
import { type Message, messageText, ReplySource } from '../../shared/sessions/index.ts';
import { errorMessage } from '../errors.ts';
import { recallPrompt } from './recall-prompt.ts';

/** At most this many sources count from one block (a plugin's are checked to this limit as they arrive). */
const MAX_SOURCES_PER_BLOCK = 20;

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
  /** 'run': its text holds for the run until a new user message (see KeptRenders). */
  cache?: 'run';
  /** May throw or reject: the block is then skipped and reported; the turn goes on. */
  render(context: PromptBlockContext): PromptBlockOutput | Promise<PromptBlockOutput>;
}

/** A block's text, or its text and the things it drew on (recorded on the reply, never sent). */
export type PromptBlockOutput = string | { text: string; sources?: readonly ReplySource[] | undefined };

/** What a render may answer; anything else leaves the block out of the turn. */
const PromptBlockOutput = z.union([z.string(), z.object({ text: z.string(), sources: z.array(ReplySource).max(MAX_SOURCES_PER_BLOCK).optional() })]);

export interface AssembledPrompt {
  systemPrompt: string;
  messages: Message[];
  failures: { blockId: string; error: string }[];
  /** What the blocks that rendered into this request drew on, in block order, each once. */
  sources: ReplySource[];
}

export interface AssembleInput {
  systemPrompt: string;
  blocks: readonly PromptBlock[];
  messages: readonly Message[];
  context: PromptBlockContext;
  /** A block that has not rendered by then is skipped and reported. */
  renderTimeoutMs?: number;
  /** The run's renders of its 'run' blocks: used until a new user message, filled as they render. */
  kept?: KeptRenders;
}

/**
 * What a run keeps of the blocks declared `cache: 'run'`, by block id: the user message each rendered after
 * (its place and text) and what it rendered. A render that failed is not kept (the next request tries again).
 */
export type KeptRenders = Map<string, { after: string; rendered: Extract<Rendered, { ok: true }> }>;

/**
 * The request's system prompt and messages: the system prompt, then the head blocks, joined by blank
 * lines; the conversation; then the tail blocks as one user message after it (sent, never persisted).
 * Blocks render in parallel; an empty render is left out.
 */
export async function assemblePrompt(input: AssembleInput): Promise<AssembledPrompt> {
  const timeoutMs = input.renderTimeoutMs ?? 10_000;
  const ordered = input.blocks.map((block, order) => ({ block, order })).sort((a, b) => a.block.priority - b.block.priority || a.order - b.order);
  // Built for the first block that renders: a request whose blocks are all kept (or that has none) needs no prompt.
  let built: PromptBlockContext | null = null;
  const context = (): PromptBlockContext => (built ??= { ...input.context, prompt: input.context.prompt ?? recallPrompt(input.messages) });
  const after = input.kept ? latestUserMessage(input.messages) : '';
  const rendered = await Promise.all(ordered.map(({ block }) => renderKept(block, context, timeoutMs, input.kept, after)));
  const failures: AssembledPrompt['failures'] = [];
  const head: string[] = [];
  const tail: string[] = [];
  const sources = new Map<string, ReplySource>();
  rendered.forEach((r, i) => {
    const block = ordered[i]!.block;
    if (!r.ok) failures.push({ blockId: block.id, error: r.error });
    else if (r.text.trim() !== '') {
      (block.position === 'head' ? head : tail).push(r.text);
      for (const source of r.sources) sources.set(JSON.stringify([source.pluginId, source.id]), source);
    }
  });
  const systemPrompt = [input.systemPrompt, ...head].filter((s) => s.trim() !== '').join('\n\n');
  const messages: Message[] = [...input.messages];
  if (tail.length > 0) messages.push({ role: 'user', content: tail.join('\n\n') });
  return { systemPrompt, messages, failures, sources: [...sources.values()] };
}

type Rendered = { ok: true; text: string; sources: readonly ReplySource[] } | { ok: false; error: string };

/** A 'run' block's kept render while no user message came after it; else a render (kept when it is a 'run' block). */
async function renderKept(
  block: PromptBlock,
  context: () => PromptBlockContext,
  timeoutMs: number,
  kept: KeptRenders | undefined,
  after: string,
): Promise<Rendered> {
  if (block.cache !== 'run' || !kept) return renderOne(block, context(), timeoutMs);
  const held = kept.get(block.id);
  if (held && held.after === after) return held.rendered;
  const rendered = await renderOne(block, context(), timeoutMs);
  if (rendered.ok) kept.set(block.id, { after, rendered });
  else kept.delete(block.id);
  return rendered;
}

/** The latest user message of the request, as its place and its text: a new one (a steer, a follow-up) renders 'run' blocks again. */
function latestUserMessage(messages: readonly Message[]): string {
  const i = messages.findLastIndex((m) => (m as { role?: unknown }).role === 'user');
  return i < 0 ? '' : JSON.stringify([i, messageText(messages[i]!)]);
}

async function renderOne(block: PromptBlock, context: PromptBlockContext, timeoutMs: number): Promise<Rendered> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Rendered>((res) => {
    timer = setTimeout(() => res({ ok: false, error: `it did not render within ${timeoutMs} ms` }), timeoutMs);
  });
  const rendering = Promise.resolve()
    .then(() => block.render(context))
    .then(
      (answer): Rendered => {
        const parsed = PromptBlockOutput.safeParse(answer);
        if (!parsed.success) return { ok: false, error: 'it rendered something other than text, or text and the sources it drew on' };
        return typeof parsed.data === 'string'
          ? { ok: true, text: parsed.data, sources: [] }
          : { ok: true, text: parsed.data.text, sources: parsed.data.sources ?? [] };
      },
      (e: unknown): Rendered => ({ ok: false, error: errorMessage(e) }),
    );
  try {
    return await Promise.race([rendering, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
