import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../shared/providers/index.ts';
import { ModelCatalog } from './model-catalog.ts';
import { modelMetadata } from './model-metadata.ts';

const catalog = new ModelCatalog();
await catalog.ready();

const describeModel = (modelId: string, presetId: string | undefined, listed?: ModelInfo) =>
  modelMetadata({ listed, modelId, presetId, catalog, fallbackContextWindow: 32_768 });

describe('modelMetadata', () => {
  it('prices a catalog model behind any OpenAI-compatible base URL by its id', () => {
    const info = describeModel('gpt-4o-mini', 'custom');
    expect(info).toMatchObject({ priced: true, contextWindow: 128_000, pricing: { input: 0.15, output: 0.6 } });
    expect(describeModel('openai/gpt-4o-mini', 'custom').pricing.input).toBe(0.15);
  });

  it('takes whether a model reasons from the catalog', () => {
    expect(describeModel('claude-3-7-sonnet-20250219', 'anthropic').reasoning).toBe(true);
    expect(describeModel('gpt-4o-mini', 'openai').reasoning).toBe(false);
  });

  it('takes whether a model reads images from the catalog, and says nothing of a model it does not know', () => {
    expect(describeModel('gpt-4o-mini', 'custom').images).toBe(true);
    expect(describeModel('deepseek-reasoner', 'deepseek').images).toBe(false);
    expect(describeModel('my-own-finetune-7b', 'custom').images).toBeUndefined();
  });

  it('Ollama and LM Studio models are free by definition', () => {
    expect(describeModel('gpt-4o-mini', 'ollama')).toMatchObject({ priced: true, pricing: { input: 0, output: 0 } });
    expect(describeModel('llama3.1:8b', 'lmstudio')).toMatchObject({ priced: true, pricing: { input: 0, output: 0 } });
  });

  it('a model nobody prices is unpriced (cost unknown), not free', () => {
    const info = describeModel('my-own-finetune-7b', 'custom');
    expect(info.priced).toBe(false);
    expect(info.contextWindow).toBe(32_768);
  });

  it("the provider's own prices (OpenRouter reports them) win over the catalog's", () => {
    const listed: ModelInfo = {
      id: 'openai/gpt-4o-mini',
      contextWindow: 128_000,
      reasoning: false,
      pricing: { input: 0.2, output: 0.8, cacheRead: 0, cacheWrite: 0 },
    };
    expect(describeModel('openai/gpt-4o-mini', 'openrouter', listed).pricing).toMatchObject({ input: 0.2, output: 0.8 });
  });

  it('a catalog that cannot load finds nothing and breaks nothing', async () => {
    const broken = new ModelCatalog(async () => {
      throw new Error('no catalog');
    });
    await broken.ready();
    expect(broken.find('gpt-4o-mini')).toBeNull();
    expect(modelMetadata({ listed: undefined, modelId: 'gpt-4o-mini', presetId: 'custom', catalog: broken, fallbackContextWindow: 8192 }).priced).toBe(false);
  });
});
