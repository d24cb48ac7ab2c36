import { AmberError } from '../errors.ts';

/** A model as evals name it: provider/model. */
export interface ModelName {
  provider: string;
  modelId: string;
}

/** `provider/model` as the command line names a model. */
export function parseModelName(text: string): ModelName {
  const at = text.indexOf('/');
  if (at <= 0 || at === text.length - 1)
    throw new AmberError('invalid_input', `'${text}' is not a model: name it as provider/model, as in --model openai/gpt-5.`);
  return { provider: text.slice(0, at), modelId: text.slice(at + 1) };
}
