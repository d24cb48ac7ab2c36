export { createOpenAiCompatibleStream, openAiTokens } from './openai-compatible-stream.ts';
export { listOpenAiCompatibleModels, openAiModelInfo } from './openai-compatible-models.ts';
export { OPENAI_COMPATIBLE_PRESETS, resolvePreset, type OpenAiCompatiblePreset } from './openai-compatible-presets.ts';
export { openAiRequestBody, openAiRequestBytes, toOpenAiMessages } from './openai-request-body.ts';
export type { ModelListResult, ProviderConfig, ProviderSeams } from '../provider-common/index.ts';
export { default } from './openai-compatible-plugin.ts';
