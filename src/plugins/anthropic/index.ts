export { ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, anthropicTokens, createAnthropicStream } from './anthropic-stream.ts';
export { anthropicModelInfo, listAnthropicModels } from './anthropic-models.ts';
export { anthropicRequestBody, anthropicRequestBytes, anthropicToolId, THINKING_BUDGETS, toAnthropicMessages } from './anthropic-request-body.ts';
export type { ModelListResult, ProviderConfig, ProviderSeams } from '../provider-common/index.ts';
export { default } from './anthropic-plugin.ts';
