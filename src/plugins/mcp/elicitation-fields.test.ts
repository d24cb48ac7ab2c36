import { expect, test } from 'vitest';
import { elicitationFields } from './elicitation-fields.ts';

test("an MCP server's requested schema becomes the form's fields: strings with formats, numbers with bounds, booleans, enums titled or not", () => {
  const fields = elicitationFields({
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', default: 'Ann' },
      email: { type: 'string', format: 'email', maxLength: 100 },
      age: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
      ok: { type: 'boolean', default: true },
      color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
      hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
      fish: { type: 'array', minItems: 1, items: { anyOf: [{ const: 'f1', title: 'Tuna' }] }, default: ['f1'] },
    },
    required: ['name'],
  });
  expect(fields).toEqual([
    { kind: 'text', name: 'name', title: 'Name', required: true, default: 'Ann' },
    { kind: 'text', name: 'email', required: false, format: 'email', maxLength: 100 },
    { kind: 'integer', name: 'age', required: false, minimum: 1, maximum: 100, default: 42 },
    { kind: 'boolean', name: 'ok', required: false, default: true },
    {
      kind: 'choice',
      name: 'color',
      required: false,
      options: [
        { value: 'r', label: 'Red' },
        { value: 'g', label: 'Green' },
      ],
      default: 'g',
    },
    { kind: 'choice', name: 'hero', required: false, options: [{ value: 'h1', label: 'Superman' }] },
    { kind: 'choices', name: 'fish', required: false, options: [{ value: 'f1', label: 'Tuna' }], minItems: 1, default: ['f1'] },
  ]);
});

test('a schema a form cannot ask for is refused with a sentence', () => {
  expect(() => elicitationFields({ type: 'array' })).toThrow(/not an object with properties/);
  expect(() => elicitationFields({ type: 'object', properties: { nested: { type: 'object' } } })).toThrow(/'nested' is of a kind a form cannot ask for/);
});
