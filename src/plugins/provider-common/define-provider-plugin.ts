import { z } from 'zod';
import { ModelInfo, type ProviderEvent, type ProviderRequest, type StreamFn } from '../../shared/providers/index.ts';
import { decline, definePlugin, type DefinedPlugin, type PluginContext, type PluginContribution } from '../../workers/sdk/index.ts';
import { type ListModels, probeModels } from './probe-models.ts';
import type { ProviderConfig } from './provider-config.ts';

/** One provider account as main hands it to a provider plugin (its `accounts` config, read live). */
export const ProviderAccountConfig = z.object({
  id: z.string().min(1),
  flavor: z.string().min(1),
  label: z.string().optional(),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  models: z.array(ModelInfo).min(1),
});
export type ProviderAccountConfig = z.infer<typeof ProviderAccountConfig>;

const Accounts = z.array(ProviderAccountConfig);

async function readAccounts(ctx: PluginContext): Promise<ProviderAccountConfig[]> {
  const parsed = Accounts.safeParse((await ctx.config('accounts')) ?? []);
  if (!parsed.success) {
    ctx.log.warn(`Ignoring the provider accounts config: ${z.prettifyError(parsed.error)}`);
    return [];
  }
  return parsed.data;
}

function failure(account: string, request: ProviderRequest, text: string): ProviderEvent {
  return {
    type: 'error',
    kind: 'bad_request',
    message: { role: 'assistant', content: [], provider: account, model: request.model.id, stopReason: 'error', errorMessage: text, timestamp: Date.now() },
  };
}

export interface ProviderPluginOptions {
  dialect: string;
  accepts: (account: ProviderAccountConfig) => boolean;
  createStream: (config: ProviderConfig) => StreamFn;
  /** The dialect's model listing: it answers the connection test (`probe`), with or without accounts. */
  listModels: ListModels;
}

/**
 * A bundled provider plugin: one provider contribution per configured account of this dialect. The key is
 * read live from the host at the start of each call, so a changed key applies without a restart. The
 * connection test is the plugin's `probe`, not a contribution's: it works before any account exists.
 */
export function defineProviderPlugin(options: ProviderPluginOptions): DefinedPlugin {
  let ctx: PluginContext | null = null;
  const stream = (accountId: string): StreamFn =>
    async function* (request, signal) {
      let account: ProviderAccountConfig | undefined;
      try {
        account = ctx ? (await readAccounts(ctx)).find((a) => a.id === accountId) : undefined;
      } catch (e) {
        yield failure(accountId, request, `Could not read the settings of provider ${accountId}: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (!account) {
        yield failure(accountId, request, `The provider ${accountId} is no longer set up. Choose another model or set it up again in Settings.`);
        return;
      }
      yield* options.createStream({ baseUrl: account.baseUrl, apiKey: account.apiKey, flavor: account.flavor })(request, signal);
    };

  return definePlugin({
    async initialize(context) {
      ctx = context;
      return true;
    },
    async shutdown() {
      ctx = null;
    },
    async capabilities(): Promise<PluginContribution[]> {
      const accounts = ctx ? (await readAccounts(ctx)).filter(options.accepts) : [];
      if (accounts.length === 0) return [decline('provider', options.dialect, 'No account of this kind is set up yet.')];
      return accounts.map((account) => ({
        kind: 'provider' as const,
        id: account.id,
        flavor: account.flavor,
        models: account.models,
        stream: stream(account.id),
      }));
    },
    probe: (request, signal) => probeModels(options.listModels, request, signal),
  });
}
