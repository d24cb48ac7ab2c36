// A scripted fake provider for agent tests: each call to `stream` plays the next scripted reply.
// This is a seam (a StreamFn passed in), not a module mock.
import type { AbortSignalLike, ModelInfo, ProviderErrorKind, ProviderEvent, ProviderRequest, StreamFn } from '../../src/shared/providers/index.ts';
import type { AssistantMessage, StopReason, Usage } from '../../src/shared/sessions/index.ts';

export const MODEL: ModelInfo = {
  id: 'fake-1',
  contextWindow: 100_000,
  reasoning: false,
  pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

export type Script = (request: ProviderRequest, signal: AbortSignalLike) => AsyncIterable<ProviderEvent>;

export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

let callIds = 0;

function assistant(content: AssistantMessage['content'], stopReason: StopReason, usage?: Usage): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content, stopReason, provider: 'fake', model: MODEL.id };
  if (usage) message.usage = usage;
  return message;
}

/** A reply: optional thinking and text, then tool calls streamed in two argument chunks each. */
export function reply(options: { text?: string; thinking?: string; calls?: ScriptedCall[]; stopReason?: StopReason; usage?: Usage } = {}): Script {
  return async function* () {
    yield { type: 'start' };
    const content: AssistantMessage['content'] = [];
    if (options.thinking) {
      yield { type: 'thinking_delta', delta: options.thinking };
      content.push({ type: 'thinking', thinking: options.thinking });
    }
    if (options.text) {
      const half = Math.ceil(options.text.length / 2);
      yield { type: 'text_delta', delta: options.text.slice(0, half) };
      yield { type: 'text_delta', delta: options.text.slice(half) };
      content.push({ type: 'text', text: options.text });
    }
    for (const [index, call] of (options.calls ?? []).entries()) {
      const id = call.id ?? `call-${++callIds}`;
      const json = JSON.stringify(call.args);
      yield { type: 'toolcall_delta', index, id, name: call.name, argumentsDelta: json.slice(0, 3) };
      yield { type: 'toolcall_delta', index, argumentsDelta: json.slice(3) };
      content.push({ type: 'toolCall', id, name: call.name, arguments: call.args });
    }
    const stopReason = options.stopReason ?? ((options.calls?.length ?? 0) > 0 ? 'toolUse' : 'stop');
    yield { type: 'done', message: assistant(content, stopReason, options.usage) };
  };
}

export const text = (t: string, usage?: Usage): Script => reply(usage ? { text: t, usage } : { text: t });
export const calls = (...c: ScriptedCall[]): Script => reply({ calls: c });

/** A failed call, as providers report it: never a throw. */
export function failure(kind: ProviderErrorKind, errorMessage: string): Script {
  return async function* () {
    yield { type: 'start' };
    yield { type: 'error', kind, message: { ...assistant([], 'error'), errorMessage } };
  };
}

/** Streams `partial`, calls `onStreaming`, then never ends on its own (it ignores the abort signal). */
export function stall(partial: string, onStreaming: () => void = () => {}): Script {
  return async function* () {
    yield { type: 'start' };
    yield { type: 'text_delta', delta: partial };
    onStreaming();
    await new Promise<never>(() => {});
  };
}

/** Breaks the contract: throws instead of ending with an error event. */
export function throwing(message: string): Script {
  // oxlint-disable-next-line require-yield
  return async function* () {
    throw new Error(message);
  };
}

/** Plays scripts in order and records every request (deep-copied) it was sent. */
export class ScriptedProvider {
  readonly requests: ProviderRequest[] = [];
  readonly #scripts: Script[];

  constructor(scripts: Script[] = []) {
    this.#scripts = [...scripts];
  }

  push(...scripts: Script[]): void {
    this.#scripts.push(...scripts);
  }

  get remaining(): number {
    return this.#scripts.length;
  }

  readonly stream: StreamFn = (request, signal) => {
    this.requests.push(structuredClone(request));
    const script = this.#scripts.shift() ?? failure('unknown', 'The test script has no reply left.');
    return script(request, signal);
  };
}
