import { expect, test } from 'vitest';
import type { ProviderConnectionView } from '../../shared/api/index.ts';
import { accountLine } from './account-line.ts';

const conn = (id: string, name: string, presetId: string): ProviderConnectionView => ({
  id,
  name,
  presetId,
  baseUrl: 'http://127.0.0.1:1/v1',
  dialect: 'openai-compatible',
  models: ['m'],
  hasKey: false,
  isDefault: false,
});

test('a connection says its kind, and its id beside another of the same kind or when its name does not echo it', () => {
  const openai = conn('openai', 'OpenAI', 'openai');
  const vllm = conn('vllm-box', 'vLLM box', 'custom');
  expect(accountLine(openai, [openai, vllm])).toBe('OpenAI');
  expect(accountLine(vllm, [openai, vllm])).toBe('Other OpenAI-compatible server');
  const llama = conn('llama-cpp', 'llama.cpp', 'custom');
  expect(accountLine(vllm, [openai, vllm, llama])).toBe('Other OpenAI-compatible server · id vllm-box');
  // Renamed after it was made: the id it keeps is what /model still takes.
  expect(accountLine(conn('work', 'Personal', 'openrouter'), [])).toBe('OpenRouter · id work');
});
