import { z } from 'zod';
import { type ProviderResolver, structuredAnswer } from '../agent/index.ts';
import type { CheckJudge } from './eval-checks.ts';
import { parseModelName } from './model-name.ts';

const JUDGE_SYSTEM =
  "You grade an AI assistant's final reply to a task against a rubric. Read the task, the rubric and the reply; " +
  'decide whether the reply meets the rubric, give a score from 0 (not at all) to 1 (fully), and say why in a few sentences. ' +
  'Judge only what the reply says; do not reward length.';

const Verdict = z.object({
  passed: z.boolean().describe('Whether the reply meets the rubric'),
  score: z.number().min(0).max(1).describe('0 to 1'),
  reasoning: z.string().max(4000).describe('Why, in a few sentences'),
});

/** The most characters of the task and of the reply the judge reads. */
const MAX_CHARS = 20_000;
const clip = (text: string) => (text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n[…cut]` : text);

/**
 * A rubric check's judge: the check's model, else `fallback` (the suite's or --judge), asked for a verdict that
 * follows a schema (twice at most). A model that cannot be reached or answers garbage gives an error, which
 * the check scores as failed with the reason; it never throws.
 */
export function createJudge(resolve: ProviderResolver, fallback: string | undefined, signal?: AbortSignal): CheckJudge {
  return async ({ rubric, judge, prompt, reply }) => {
    const name = judge ?? fallback;
    if (name === undefined) return { error: 'no judge model is named (the suite\'s "judge" or --judge provider/model)' };
    let provider: Awaited<ReturnType<ProviderResolver>>;
    const ref = parseModelName(name);
    try {
      provider = await resolve(ref);
    } catch (e) {
      return { error: `the judge ${name} is not available: ${e instanceof Error ? e.message : String(e)}` };
    }
    const answer = await structuredAnswer({
      stream: provider.stream,
      request: {
        model: provider.model,
        systemPrompt: JUDGE_SYSTEM,
        messages: [
          {
            role: 'user',
            content: `Task:\n${clip(prompt)}\n\nRubric:\n${rubric}\n\nThe assistant's final reply:\n${clip(reply) || '(no reply)'}`,
            timestamp: Date.now(),
          },
        ],
        tools: [],
        thinkingLevel: null,
        maxTokens: 1000,
      },
      name: 'grade_reply',
      description: 'The grade of the reply against the rubric.',
      schema: Verdict,
      signal: signal ?? new AbortController().signal,
      provider: ref.provider,
      clock: Date.now,
    });
    if (!answer.ok) return { error: answer.failure === 'schema' ? "the judge's answer did not follow its schema twice" : answer.reason };
    return answer.value;
  };
}
