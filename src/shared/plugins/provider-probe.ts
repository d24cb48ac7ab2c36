import { z } from 'zod';
import { MAX_PROVIDER_MODELS } from './declaration-limits.ts';

// The connection test: main asks the provider plugin of a dialect to list the models of an endpoint the
// user typed. It is a plugin-level capability, not a contribution: provider plugins decline their
// `provider` contribution until an account is set up, and the first-run screen tests before that.

/** The most model ids one answer may carry; a plugin lists the first ones of a longer list. */
export const MAX_PROBE_MODELS = MAX_PROVIDER_MODELS;
/** The longest model id kept (as long as `providers.save` accepts); a plugin leaves longer ones out. */
export const MAX_PROBE_MODEL_ID_CHARS = 200;
/** The longest message an answer may carry; a plugin shortens a longer one. */
export const MAX_PROBE_MESSAGE_CHARS = 2000;

/** What main sends: the endpoint as the user typed it. The key goes only to that dialect's plugin. */
export const ProviderProbeRequest = z.object({
  /** The preset's id ('openai', 'ollama', 'anthropic', 'custom', …): how the plugin talks to the server. */
  flavor: z.string().min(1).max(50),
  baseUrl: z.url().max(2000),
  apiKey: z.string().max(2000).optional(),
});
export type ProviderProbeRequest = z.infer<typeof ProviderProbeRequest>;

/** What the plugin answers: the models it found, or a sentence saying what to fix. Never the key. */
export const ProviderProbeResult = z.object({
  ok: z.boolean(),
  models: z.array(z.string().min(1).max(MAX_PROBE_MODEL_ID_CHARS)).max(MAX_PROBE_MODELS),
  message: z.string().min(1).max(MAX_PROBE_MESSAGE_CHARS),
});
export type ProviderProbeResult = z.infer<typeof ProviderProbeResult>;
