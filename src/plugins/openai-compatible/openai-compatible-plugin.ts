import { defineProviderPlugin } from '../provider-common/index.ts';
import { listOpenAiCompatibleModels } from './openai-compatible-models.ts';
import { createOpenAiCompatibleStream } from './openai-compatible-stream.ts';

/** OpenAI, Ollama, LM Studio, OpenRouter, DeepSeek, Groq and any OpenAI-compatible base URL. */
export default defineProviderPlugin({
  dialect: 'openai-compatible',
  accepts: (account) => account.flavor !== 'anthropic',
  listModels: listOpenAiCompatibleModels,
  createStream: (config) => createOpenAiCompatibleStream(config),
});
