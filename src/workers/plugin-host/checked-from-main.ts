import type { Handshake, ProviderProbeRequest } from '../../shared/plugins/index.ts';
import type { CallConfig } from '../../shared/plugin-wire/index.ts';
import type { RequestBase, SentRequest } from '../../shared/sent-requests.ts';
import type { ShellSandbox } from '../../shared/tools/index.ts';
import { shellSandbox } from './shell-sandbox.ts';

// What main sends the plugin host, checked by hand where it arrives (the plugin process does not load zod;
// main validated everything before sending, so these only keep a malformed value from reaching a plugin).

export function checkHandshake(hello: unknown): Handshake {
  const h = hello as Partial<Handshake> | null;
  if (
    !h ||
    typeof h.protocolVersion !== 'number' ||
    typeof h.pluginId !== 'string' ||
    typeof h.entry !== 'string' ||
    typeof h.workspace !== 'string' ||
    typeof h.settings !== 'object' ||
    h.settings === null
  ) {
    throw new Error('The handshake from main is malformed.');
  }
  return h as Handshake;
}

/** The probe request as main sent it, checked by hand (main validated it before sending). */
export function checkProbeRequest(raw: unknown): ProviderProbeRequest {
  const r = raw as Partial<ProviderProbeRequest> | null;
  if (!r || typeof r.flavor !== 'string' || typeof r.baseUrl !== 'string' || (r.apiKey !== undefined && typeof r.apiKey !== 'string')) {
    throw new Error('The connection test request from main is malformed.');
  }
  return { flavor: r.flavor, baseUrl: r.baseUrl, ...(r.apiKey !== undefined ? { apiKey: r.apiKey } : {}) };
}

/** The config main sent with a call, when it is a plain object (main sends what its `$getConfig` answers). */
export function sentConfig(call: CallConfig | undefined): Record<string, unknown> | null {
  const config = typeof call === 'object' && call !== null ? call.config : undefined;
  return typeof config === 'object' && config !== null && !Array.isArray(config) ? config : null;
}

export function isSentRequest(request: unknown): request is SentRequest {
  const r = request as Partial<SentRequest> | null;
  return typeof r === 'object' && r !== null && typeof r.systemPrompt === 'string' && Array.isArray(r.tools) && Array.isArray(r.messages);
}

/** The earlier request this one builds on, when main named one in a well-formed way. */
export function requestBase(call: CallConfig | undefined): RequestBase | undefined {
  const base = typeof call === 'object' && call !== null ? call.base : undefined;
  if (typeof base !== 'object' || base === null) return undefined;
  // One main sent but malformed names no request held here: decode refuses it.
  if (typeof base.streamId !== 'string' || typeof base.keep !== 'number') return { streamId: '', keep: -1 };
  return {
    streamId: base.streamId,
    keep: base.keep,
    ...(base.systemPrompt === true ? { systemPrompt: true } : {}),
    ...(base.tools === true ? { tools: true } : {}),
  };
}

/** The call's context as main sent it, keeping only well-formed fields (main checks it before sending). */
export function callContext(raw: unknown): { sessionId?: string; workspace?: string; denied?: readonly string[]; sandbox?: ShellSandbox; subagent?: boolean } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { sessionId, workspace, denied, sandbox, subagent } = raw as Record<string, unknown>;
  const checked = shellSandbox(sandbox);
  return {
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    ...(typeof workspace === 'string' && workspace !== '' ? { workspace } : {}),
    ...(Array.isArray(denied) && denied.every((d) => typeof d === 'string') ? { denied: denied as string[] } : {}),
    ...(checked ? { sandbox: checked } : {}),
    ...(subagent === true ? { subagent: true } : {}),
  };
}
