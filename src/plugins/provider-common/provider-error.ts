import { FAILURE_ADVICE, type ProviderErrorKind } from '../../shared/providers/index.ts';

/** A failure as a dialect reports it: a kind for the agent loop, a sentence for the person. */
export interface ProviderFailure {
  kind: ProviderErrorKind;
  message: string;
}

// What providers say when the prompt does not fit the model's context window. Sources: the error texts of
// Anthropic, OpenAI, OpenRouter, Groq, DeepSeek, Mistral, xAI, Gemini, Bedrock, llama.cpp, LM Studio, Ollama.
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /exceeded max context length/i,
  /too large for model with \d+ maximum context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
];

export function isContextOverflowText(text: string): boolean {
  return OVERFLOW_PATTERNS.some((p) => p.test(text));
}

// Error bodies sometimes echo the key they rejected: every form of it is removed (one copy, in shared).
export { redactSecret } from '../../shared/providers/index.ts';

/** The provider's own words from an error body: `{error:{message}}`, `{error:"…"}`, `{message}`, `{detail}` or text. */
export function errorBodyMessage(body: string): { message: string; code?: string; type?: string } {
  const trimmed = body.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object') {
      const o = parsed as Record<string, unknown>;
      const err = o.error;
      if (typeof err === 'string') return { message: err };
      if (err && typeof err === 'object') {
        const e = err as Record<string, unknown>;
        const message = typeof e.message === 'string' ? e.message : JSON.stringify(err);
        return { message, code: typeof e.code === 'string' ? e.code : undefined, type: typeof e.type === 'string' ? e.type : undefined };
      }
      if (typeof o.message === 'string') return { message: o.message };
      if (typeof o.detail === 'string') return { message: o.detail };
    }
  } catch {
    // not JSON: the text itself
  }
  const oneLine = trimmed.replace(/\s+/g, ' ');
  return { message: oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine || '(empty body)' };
}

/** Classifies an HTTP error response. `label` names the provider in the sentence. */
export function httpFailure(label: string, status: number, body: string, retries: number): ProviderFailure {
  const { message: raw, code, type } = errorBodyMessage(body);
  const said = raw.replace(/[.\s]+$/, '');
  const detail = `${label} answered HTTP ${status}: ${said}`;
  const tried = retries > 0 ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
  if (status === 401 || status === 403) {
    return { kind: 'auth', message: `${detail}. ${FAILURE_ADVICE.auth}` };
  }
  if (status !== 429 && (status === 413 || code === 'context_length_exceeded' || isContextOverflowText(said))) {
    return { kind: 'context_overflow', message: `The conversation is too long for the model's context window. ${detail}.` };
  }
  if (status === 429) {
    if (code === 'insufficient_quota' || type === 'insufficient_quota') {
      return { kind: 'rate_limit', message: `${detail}. ${FAILURE_ADVICE.quota}` };
    }
    return { kind: 'rate_limit', message: `${detail}${tried}. ${FAILURE_ADVICE.rateLimit}` };
  }
  if (status >= 500) {
    return { kind: 'server', message: `${detail}${tried}. ${FAILURE_ADVICE.server}` };
  }
  if (status === 404) {
    return { kind: 'bad_request', message: `${detail}. ${FAILURE_ADVICE.notFound}` };
  }
  return { kind: 'bad_request', message: `${detail}.` };
}

/** Classifies an error object a provider sent inside a stream (Anthropic `event: error`, OpenRouter `{error}`). */
export function streamErrorFailure(label: string, error: unknown): ProviderFailure {
  const e = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  const said = (typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : JSON.stringify(error)).replace(/[.\s]+$/, '');
  const type = typeof e.type === 'string' ? e.type : typeof e.code === 'string' ? e.code : String(e.code ?? '');
  const detail = `${label} reported an error mid-stream: ${said}`;
  if (type === 'context_length_exceeded' || isContextOverflowText(said)) {
    return { kind: 'context_overflow', message: `The conversation is too long for the model's context window. ${detail}.` };
  }
  if (/rate_limit|429/.test(type)) return { kind: 'rate_limit', message: `${detail}. Wait a moment and try again.` };
  if (/overloaded|api_error|server|5\d\d/.test(type)) return { kind: 'server', message: `${detail}. Try again later.` };
  if (/auth|permission|401|403/.test(type)) return { kind: 'auth', message: `${detail}. Check the API key.` };
  if (/invalid_request|400/.test(type)) return { kind: 'bad_request', message: `${detail}.` };
  return { kind: 'unknown', message: `${detail}.` };
}

/** A fetch that failed before any response: the cause's code and words, for "could not reach …". */
export function networkFailure(label: string, url: string, error: unknown): ProviderFailure {
  return {
    kind: 'network',
    message: `Could not reach ${label} at ${displayUrl(url)}: ${describeCause(error)}. Check that the server is running and the base URL is right.`,
  };
}

/** The first system error code (`ECONNREFUSED`, `ECONNRESET`, …) along an error's causes, if any. */
export function causeCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    e = e.cause;
  }
  return undefined;
}

export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e instanceof Error) {
      const code = (e as Error & { code?: unknown }).code;
      const text = typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
      if (text && !parts.includes(text)) parts.push(text);
      e = e.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(': ') || 'unknown network error';
}

export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}
