// elicitations.answer over the API: hostile answers are refused with invalid_input before the broker sees them,
// an answer that does not fit its form is refused with a sentence naming the field, and the form stays open.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
beforeAll(() => {
  t = openApp({ prefix: 'amber-elicitation-api-', app: (dir) => ({ dataDir: dir }) });
});
afterAll(() => t.close());

test('hostile answers are refused and the form stays open; a good one settles it', async () => {
  const answer = t.app.elicitations.ask('mcp', {
    requestId: 'r1',
    source: 'weather',
    message: 'Which city?',
    fields: [{ kind: 'text', name: 'city', required: true, maxLength: 40 }],
  });
  const [question] = (await t.call<{ id: string }[]>('elicitations.list')) ?? [];
  const questionId = question!.id;
  const hostile: unknown[] = [
    { questionId, answer: { action: 'maybe' } },
    { questionId, answer: { action: 'accept' } },
    { questionId, answer: { action: 'accept', content: { city: { $ne: null } } } },
    { questionId, answer: { action: 'accept', content: JSON.parse('{"__proto__": "x"}') as unknown } },
    { questionId, answer: { action: 'decline', content: { city: 'x' } } },
    { questionId, answer: { action: 'accept', content: { city: 'x'.repeat(10_001) } } },
    { questionId: 'x'.repeat(200), answer: { action: 'cancel' } },
    { questionId, answer: { action: 'cancel' }, extra: 1 },
  ];
  for (const input of hostile) expect((await t.refused('elicitations.answer', input)).code, JSON.stringify(input).slice(0, 80)).toBe('invalid_input');
  expect(await t.refused('elicitations.answer', { questionId, answer: { action: 'accept', content: { city: 'x'.repeat(41) } } })).toMatchObject({
    code: 'invalid_input',
    message: 'The form cannot be sent: city: Use at most 40 characters.',
  });
  expect(await t.call('elicitations.list')).toHaveLength(1);
  await t.call('elicitations.answer', { questionId, answer: { action: 'accept', content: { city: 'Lyon' } } });
  await expect(answer).resolves.toEqual({ action: 'accept', content: { city: 'Lyon' } });
  expect(await t.call('elicitations.list')).toEqual([]);
});
