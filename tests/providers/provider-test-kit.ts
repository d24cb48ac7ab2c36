import type { AbortSignalLike, ModelInfo, ProviderEvent, ProviderRequest, StreamFn } from '../../src/shared/providers/index.ts';
import type { AssistantMessage } from '../../src/shared/sessions/index.ts';

export const MODEL: ModelInfo = {
  id: 'fixture-model',
  contextWindow: 128_000,
  reasoning: true,
  pricing: { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 4 },
};

export function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: MODEL, systemPrompt: 'You are terse.', messages: [{ role: 'user', content: 'hi' }], tools: [], ...overrides };
}

/** Runs a stream to its end; fails the test if it throws or does not end with exactly one done/error. */
export async function collect(
  stream: StreamFn,
  req: ProviderRequest = request(),
  signal: AbortSignalLike = new AbortController().signal,
): Promise<{ events: ProviderEvent[]; final: Extract<ProviderEvent, { type: 'done' | 'error' }>; message: AssistantMessage }> {
  const events: ProviderEvent[] = [];
  for await (const e of stream(req, signal)) events.push(e);
  const terminal = events.filter((e) => e.type === 'done' || e.type === 'error');
  if (terminal.length !== 1 || events.at(-1) !== terminal[0])
    throw new Error(`expected exactly one final done/error, got ${events.map((e) => e.type).join(',')}`);
  const final = terminal[0] as Extract<ProviderEvent, { type: 'done' | 'error' }>;
  return { events, final, message: final.message };
}

/** Seams that never wait: records the waits asked for instead. */
export function instantSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

export const textOf = (events: ProviderEvent[], type: 'text_delta' | 'thinking_delta') => events.flatMap((e) => (e.type === type ? [e.delta] : [])).join('');
