import { defineProviderPlugin } from '../provider-common/index.ts';
import { listAnthropicModels } from './anthropic-models.ts';
import { createAnthropicStream } from './anthropic-stream.ts';

/** Anthropic's Messages API. */
export default defineProviderPlugin({
  dialect: 'anthropic',
  accepts: (account) => account.flavor === 'anthropic',
  listModels: listAnthropicModels,
  createStream: (config) => createAnthropicStream(config),
});
