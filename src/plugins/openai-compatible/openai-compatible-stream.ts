import type { EventSourceMessage } from 'eventsource-parser';
import type { AbortSignalLike, ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import type { StopReason } from '../../shared/sessions/index.ts';
import {
  AssistantMessageBuilder,
  joinUrl,
  NO_EVENTS,
  parseEventJson,
  resolveSeams,
  runProviderStream,
  streamErrorFailure,
  StreamFailure,
  type ProviderConfig,
  type ProviderSeams,
  type ResolvedSeams,
  type TokenCounts,
} from '../provider-common/index.ts';
import { resolvePreset, type OpenAiCompatiblePreset } from './openai-compatible-presets.ts';
import { openAiRequestBytes } from './openai-request-body.ts';
import { ThinkTagSplitter } from './think-tag-splitter.ts';

type Json = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/** Token counts from an OpenAI-style usage object (OpenAI's cached_tokens, DeepSeek's cache hits). */
export function openAiTokens(usage: unknown): Partial<TokenCounts> {
  const u = obj(usage);
  const prompt = num(u.prompt_tokens);
  const cached = num(obj(u.prompt_tokens_details).cached_tokens) || num(u.prompt_cache_hit_tokens);
  const total = num(u.total_tokens);
  return { input: Math.max(0, prompt - cached), output: num(u.completion_tokens), cacheRead: cached, cacheWrite: 0, ...(total ? { totalTokens: total } : {}) };
}

const FINISH: Record<string, StopReason> = { stop: 'stop', length: 'length', tool_calls: 'toolUse', function_call: 'toolUse' };

/** Headers for an OpenAI-compatible call; the key goes in Authorization only. */
export function openAiHeaders(config: ProviderConfig, accept: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept,
    ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
    ...config.headers,
  };
}

/** Why a config cannot be used at all, before any request; undefined when it can. */
export function openAiConfigProblem(config: ProviderConfig, preset: OpenAiCompatiblePreset): { kind: 'bad_request' | 'auth'; message: string } | undefined {
  const baseUrl = config.baseUrl || preset.baseUrl;
  if (!baseUrl) return { kind: 'bad_request', message: `Set a base URL for this ${preset.label} (for example http://localhost:8000/v1).` };
  if (!URL.canParse(baseUrl)) return { kind: 'bad_request', message: `The base URL "${baseUrl}" is not a valid URL; it should look like https://host/v1.` };
  if (preset.needsKey && !config.apiKey) return { kind: 'auth', message: `Add an API key for ${preset.label} in the provider settings.` };
  return undefined;
}

/** Maps chat-completions chunks onto the builder; one instance per call. */
class OpenAiChunkMapper {
  private sawDone = false;
  private finishReason: string | undefined;
  private readonly thinkTags = new ThinkTagSplitter();
  private readonly builder: AssistantMessageBuilder;
  private readonly label: string;

  constructor(builder: AssistantMessageBuilder, label: string) {
    this.builder = builder;
    this.label = label;
  }

  finished(): boolean {
    return this.sawDone;
  }

  closedCleanly(): boolean {
    return this.sawDone || this.finishReason !== undefined;
  }

  onEvent(sse: EventSourceMessage): ProviderEvent[] {
    if (sse.data === '[DONE]') {
      this.sawDone = true;
      return NO_EVENTS;
    }
    return this.onChunk(obj(parseEventJson(this.label, sse.data)));
  }

  onJson(body: unknown): ProviderEvent[] {
    const b = obj(body);
    const choices = Array.isArray(b.choices) ? b.choices.map(obj) : [];
    const asChunk = {
      ...b,
      choices: choices.map((c) => {
        const m = obj(c.message);
        const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map((tc, index) => ({ index, ...obj(tc) })) : undefined;
        return { ...c, delta: { ...m, tool_calls: calls } };
      }),
    };
    const events = this.onChunk(asChunk);
    this.sawDone = true;
    return events;
  }

  /** Content held back by the think-tag splitter, released when the reply ends. */
  flush(): ProviderEvent[] {
    return this.thinkTags.flush().map((piece) => (piece.kind === 'text' ? this.builder.text(piece.text) : this.builder.thinking(piece.text)));
  }

  private onChunk(chunk: Json): ProviderEvent[] {
    if (chunk.error !== undefined && chunk.error !== null) {
      const f = streamErrorFailure(this.label, chunk.error);
      throw new StreamFailure(f.kind, f.message);
    }
    const usage = chunk.usage ?? obj(chunk.x_groq).usage;
    if (usage && typeof usage === 'object') this.builder.setTokens(openAiTokens(usage));
    const choice = Array.isArray(chunk.choices) ? obj(chunk.choices[0]) : undefined;
    if (!choice) return NO_EVENTS;
    const events: ProviderEvent[] = [];
    const delta = obj(choice.delta);
    const reasoning = delta.reasoning_content ?? delta.reasoning ?? delta.reasoning_text;
    if (typeof reasoning === 'string' && reasoning !== '') events.push(this.builder.thinking(reasoning));
    if (typeof delta.content === 'string' && delta.content !== '') {
      for (const piece of this.thinkTags.push(delta.content))
        events.push(piece.kind === 'text' ? this.builder.text(piece.text) : this.builder.thinking(piece.text));
    }
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((raw, position) => {
        const event = this.onToolCall(obj(raw), position);
        if (event) events.push(event);
      });
    }
    const finish = choice.finish_reason;
    if (typeof finish === 'string' && finish !== '') {
      this.finishReason = finish;
      if (finish === 'content_filter') {
        throw new StreamFailure('blocked', `${this.label}'s content filter stopped the reply. Rephrase the request or try another model.`);
      }
      this.builder.stopReason = FINISH[finish] ?? 'stop';
    }
    return events;
  }

  /** One tool-call delta; undefined when it carries nothing new (no id, name or argument text). */
  private onToolCall(tc: Json, position: number): ProviderEvent | undefined {
    const fn = obj(tc.function);
    const id = typeof tc.id === 'string' && tc.id !== '' ? tc.id : undefined;
    const name = typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined;
    const key = typeof tc.index === 'number' ? tc.index : (id ?? `position-${position}`);
    let part = this.builder.tool(key);
    let announce: { id?: string; name?: string } = {};
    // Some servers reuse index 0 for every call of a reply; a new id under a used index is a new call.
    if (!part || (id !== undefined && part.id !== id && part.args !== '')) {
      part = this.builder.openTool(key, id, name);
      announce = { id: part.id, ...(part.name ? { name: part.name } : {}) };
    } else if (name !== undefined && part.name === '') {
      part.name = name;
      announce = { name };
    }
    const args = fn.arguments;
    const argsDelta = typeof args === 'string' ? args : args && typeof args === 'object' ? JSON.stringify(args) : '';
    if (argsDelta === '' && announce.id === undefined && announce.name === undefined) return undefined;
    return this.builder.toolDelta(part, argsDelta, announce);
  }
}

async function* failBeforeRequest(builder: AssistantMessageBuilder, problem: { kind: 'bad_request' | 'auth'; message: string }): AsyncGenerator<ProviderEvent> {
  yield { type: 'start' };
  yield builder.error(problem.kind, problem.message, undefined);
}

function streamWith(
  config: ProviderConfig,
  preset: OpenAiCompatiblePreset,
  seams: ResolvedSeams,
  request: ProviderRequest,
  signal: AbortSignalLike,
): AsyncIterable<ProviderEvent> {
  const builder = new AssistantMessageBuilder({ model: request.model, provider: preset.flavor, timestamp: seams.now(), newId: seams.newId });
  const problem = openAiConfigProblem(config, preset);
  if (problem) return failBeforeRequest(builder, problem);
  const mapper = new OpenAiChunkMapper(builder, preset.label);
  return runProviderStream(
    {
      label: preset.label,
      apiKey: config.apiKey,
      url: joinUrl(config.baseUrl || (preset.baseUrl as string), 'chat/completions'),
      init: { method: 'POST', headers: openAiHeaders(config, 'text/event-stream'), body: openAiRequestBytes(request, preset) },
      seams,
      builder,
      onEvent: (sse) => mapper.onEvent(sse),
      onJson: (body) => mapper.onJson(body),
      finished: () => mapper.finished(),
      closedCleanly: () => mapper.closedCleanly(),
      flush: () => mapper.flush(),
    },
    signal,
  );
}

/**
 * A StreamFn for any OpenAI-compatible chat-completions endpoint. `config.flavor` picks a preset (openai,
 * ollama, lmstudio, openrouter, deepseek, groq, custom); unknown flavors behave as custom. The base URL
 * includes the API version, as in the OpenAI SDK (`https://api.openai.com/v1`).
 */
export function createOpenAiCompatibleStream(config: ProviderConfig, seams: ProviderSeams = {}): StreamFn {
  const preset = resolvePreset(config.flavor);
  const resolved = resolveSeams(seams);
  return (request, signal) => streamWith(config, preset, resolved, request, signal);
}
