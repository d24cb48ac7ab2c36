import { errorMessage } from '../errors.ts';

export interface ProbeResult {
  ok: boolean;
  models: string[];
  message: string;
}

export interface ProbeOptions {
  baseUrl: string;
  apiKey?: string;
  /** 'anthropic' sends Anthropic's headers; anything else is treated as OpenAI-compatible. */
  dialect?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const trimSlash = (s: string): string => s.replace(/\/+$/, '');

/** How much of a failing server's answer the message quotes. */
const BODY_EXCERPT = 300;

/** `text` with every form of `secret` a server or a library might echo replaced by `[key removed]`. */
export function redactSecret(text: string, secret: string | undefined): string {
  const forms = new Set<string>();
  for (const s of [secret, secret?.trim()]) {
    if (!s) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  let out = text;
  // Longest first, so a form that contains another is replaced whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('[key removed]');
  return out;
}

/**
 * The first-run screen's connection test: GET {baseUrl}/models, which OpenAI-compatible servers, Ollama,
 * LM Studio and Anthropic all answer. Never throws; the message says what to fix. The key never comes
 * back in the result, whatever the server or the HTTP library put in their answers.
 */
export async function probeProvider(options: ProbeOptions): Promise<ProbeResult> {
  const result = await probe(options);
  return {
    ok: result.ok,
    models: result.models.map((m) => redactSecret(m, options.apiKey)),
    message: redactSecret(result.message, options.apiKey),
  };
}

async function probe(options: ProbeOptions): Promise<ProbeResult> {
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.dialect === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
  } else if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const url = `${trimSlash(options.baseUrl)}/models`;
  let res: Response;
  try {
    res = await doFetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 6000) });
  } catch (e) {
    const timedOut = e instanceof Error && e.name === 'TimeoutError';
    return {
      ok: false,
      models: [],
      message: timedOut
        ? `${url} did not answer within ${Math.round((options.timeoutMs ?? 6000) / 1000)} s. Check the address, and that the server is running.`
        : `Could not reach ${url} (${errorMessage(e)}). Check the address, and that the server is running.`,
    };
  }
  if (res.status === 401 || res.status === 403) return { ok: false, models: [], message: `The server refused the API key (HTTP ${res.status}). Paste the key again, or create a new one.` };
  if (!res.ok) {
    const said = await excerpt(res);
    return { ok: false, models: [], message: `The server answered HTTP ${res.status} at ${url}${said ? ` (${said})` : ''}. Check the base URL (it usually ends in /v1).` };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, models: [], message: `${url} did not answer with JSON; is this the API's base URL (it usually ends in /v1)?` };
  }
  const list = (body as { data?: unknown; models?: unknown }).data ?? (body as { models?: unknown }).models;
  const models = Array.isArray(list)
    ? list.flatMap((m) => {
        const id = (m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name;
        return typeof id === 'string' && id ? [id] : [];
      })
    : [];
  return { ok: true, models, message: models.length ? `Connected: ${models.length} model${models.length === 1 ? '' : 's'} available.` : 'Connected, but the server lists no models; type the model name yourself.' };
}

/** The start of a failing server's answer, on one line; '' when it has none or cannot be read. */
async function excerpt(res: Response): Promise<string> {
  try {
    const text = (await res.text()).replace(/\s+/g, ' ').trim();
    return text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text;
  } catch {
    return '';
  }
}
