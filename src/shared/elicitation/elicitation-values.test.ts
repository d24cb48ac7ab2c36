import { expect, test } from 'vitest';
import { ElicitationRequest, type ElicitationField } from './elicitation-form.ts';
import { checkElicitation, elicitationDefaults } from './elicitation-values.ts';

const fields: ElicitationField[] = [
  { kind: 'text', name: 'name', required: true, default: 'John Doe' },
  { kind: 'text', name: 'email', required: false, format: 'email' },
  { kind: 'integer', name: 'age', required: false, minimum: 0, maximum: 150, default: 30 },
  { kind: 'number', name: 'score', required: false, default: 95.5 },
  { kind: 'boolean', name: 'verified', required: false, default: true },
  { kind: 'boolean', name: 'agree', required: true },
  {
    kind: 'choice',
    name: 'status',
    required: false,
    options: [
      { value: 'active', label: 'Active' },
      { value: 'inactive', label: 'Inactive' },
    ],
    default: 'active',
  },
  {
    kind: 'choices',
    name: 'tags',
    required: false,
    options: [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ],
    minItems: 1,
    maxItems: 1,
  },
];

test('a form starts with its defaults, and a required yes/no without one starts unchecked', () => {
  expect(elicitationDefaults(fields)).toEqual({ name: 'John Doe', age: 30, score: 95.5, verified: true, agree: false, status: 'active' });
  expect(checkElicitation(fields, elicitationDefaults(fields))).toEqual({
    ok: true,
    content: { name: 'John Doe', age: 30, score: 95.5, verified: true, agree: false, status: 'active' },
  });
});

test('each value is checked against its field: required, kind, format, bounds, options', () => {
  const wrong = checkElicitation(fields, { name: '', email: 'nope', age: 30.5, score: Number.NaN, agree: 'yes' as never, status: 'gone', tags: ['a', 'b'] });
  expect(wrong).toEqual({
    ok: false,
    problems: {
      name: 'Fill this in: it is required.',
      email: 'Enter an email address, like name@example.com.',
      age: 'Enter a whole number.',
      score: 'Enter a number.',
      agree: 'Choose yes or no.',
      status: 'Choose one of the options.',
      tags: 'Choose at most 1.',
    },
  });
  expect(checkElicitation(fields, { name: 'x', agree: true, age: 200 })).toMatchObject({ ok: false, problems: { age: 'Enter 150 or less.' } });
  expect(checkElicitation(fields, { name: 'x', agree: true, tags: [] })).toMatchObject({ ok: false, problems: { tags: 'Choose at least 1.' } });
  expect(checkElicitation(fields, { name: 'x', agree: true, email: '' })).toEqual({ ok: true, content: { name: 'x', agree: true } });
});

test('a request with hostile shapes is refused: unknown kinds, duplicate or odd names, too many fields, extra keys', () => {
  const base = { requestId: 'r', source: 'srv', message: 'Why', fields: [] };
  expect(ElicitationRequest.safeParse(base).success).toBe(true);
  expect(ElicitationRequest.safeParse({ ...base, fields: [{ kind: 'script', name: 'x', required: false }] }).success).toBe(false);
  expect(ElicitationRequest.safeParse({ ...base, fields: [{ kind: 'text', name: '__proto__ x', required: false }] }).success).toBe(false);
  const twice = { kind: 'text', name: 'a', required: false };
  expect(ElicitationRequest.safeParse({ ...base, fields: [twice, twice] }).success).toBe(false);
  expect(ElicitationRequest.safeParse({ ...base, fields: Array.from({ length: 51 }, (_, i) => ({ ...twice, name: `f${i}` })) }).success).toBe(false);
  expect(ElicitationRequest.safeParse({ ...base, html: '<b>' }).success).toBe(false);
  expect(ElicitationRequest.safeParse({ ...base, message: 'x'.repeat(4001) }).success).toBe(false);
});
