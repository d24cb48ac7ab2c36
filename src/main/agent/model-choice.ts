import { ThinkingLevel } from '../../shared/agent/index.ts';
import { AmberError } from '../errors.ts';
import type { ModelRef } from './agent-loop.ts';

// The one check of what the user picks for a conversation, whichever way it comes: `/model` and
// `chat.setModel`, `/thinking` and `chat.setThinking` give the same answer to the same bad input.

/** A model for a conversation: its provider must be one that is set up now. */
export function checkModelChoice(choice: ModelRef, providers: { get(id: string): unknown }): ModelRef {
  if (choice.modelId === '') throw new AmberError('invalid_input', 'Name the model after its provider: provider/model.');
  if (!providers.get(choice.provider)) throw new AmberError('not_found', `No provider '${choice.provider}' is set up; choose one of the models listed.`);
  return { provider: choice.provider, modelId: choice.modelId };
}

/** A thinking level as typed (any case, spaces around): off, low, medium or high. */
export function checkThinkingLevel(input: string): ThinkingLevel {
  const level = ThinkingLevel.safeParse(input.trim().toLowerCase());
  if (!level.success) throw new AmberError('invalid_input', `“${input}” is not a thinking level: use off, low, medium or high.`);
  return level.data;
}
