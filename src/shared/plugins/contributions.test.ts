import { describe, expect, test } from 'vitest';
import { AllowanceVerdict, Contribution, PanelViewModel, StatusSegment } from './contributions.ts';
import {
  MAX_COMMAND_DEPTH,
  MAX_COMMAND_HELP_CHARS,
  MAX_PANEL_BYTES,
  MAX_PANEL_ROWS,
  MAX_PROVIDER_MODELS,
  MAX_STATUS_TEXT_CHARS,
  MAX_TOOL_DESCRIPTION_CHARS,
  MAX_TOOL_SCHEMA_BYTES,
  MAX_TOOL_SCHEMA_DEPTH,
  MAX_TOOL_SCHEMA_NODES,
} from './declaration-limits.ts';

const tool = (over: Record<string, unknown> = {}) => ({ kind: 'tool', name: 't', description: 'd', parameters: { type: 'object' }, readOnly: true, ...over });
const deepSchema = (depth: number): Record<string, unknown> => {
  // `{ type, properties: { x: … } }` adds two levels per step.
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 1; level < depth; level += 2) schema = { type: 'object', properties: { x: schema } };
  return schema;
};
const stringProperties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string' }]));
const rows = (count: number, text = 'r') => Array.from({ length: count }, () => ({ type: 'text', text }));
const firstMessage = (raw: unknown) => {
  const r = Contribution.safeParse(raw);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('declaration caps', () => {
  test('a tool within every cap is accepted', () => {
    expect(firstMessage(tool({ description: 'd'.repeat(MAX_TOOL_DESCRIPTION_CHARS), parameters: deepSchema(MAX_TOOL_SCHEMA_DEPTH - 1) }))).toBeNull();
  });

  test('a tool description over the cap is refused with a sentence naming the cap', () => {
    expect(firstMessage(tool({ description: 'd'.repeat(MAX_TOOL_DESCRIPTION_CHARS + 1) }))).toBe("a tool's description is at most 4,096 characters");
  });

  test('a tool parameter schema nested deeper than the cap is refused', () => {
    expect(firstMessage(tool({ parameters: deepSchema(MAX_TOOL_SCHEMA_DEPTH + 2) }))).toBe("a tool's parameter schema is nested at most 32 levels deep");
  });

  test('a tool parameter schema longer than the cap as JSON is refused', () => {
    const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(700) }]));
    expect(JSON.stringify(properties).length).toBeGreaterThan(MAX_TOOL_SCHEMA_BYTES);
    expect(firstMessage(tool({ parameters: { type: 'object', properties } }))).toBe("a tool's parameter schema is at most 65,536 bytes as JSON");
  });

  test('a tool parameter schema with more objects and arrays than the cap is refused', () => {
    // The schema, its properties map and one object per property.
    expect(firstMessage(tool({ parameters: { type: 'object', properties: stringProperties(MAX_TOOL_SCHEMA_NODES - 2) } }))).toBeNull();
    expect(firstMessage(tool({ parameters: { type: 'object', properties: stringProperties(MAX_TOOL_SCHEMA_NODES - 1) } }))).toBe(
      "a tool's parameter schema has at most 512 objects and arrays",
    );
  });

  test('a status segment text over the cap is refused, on declaration and on update', () => {
    const segment = { id: 's', text: 'x'.repeat(MAX_STATUS_TEXT_CHARS + 1) };
    expect(firstMessage({ kind: 'statusSegment', ...segment })).toBe("a status segment's text is at most 200 characters");
    expect(StatusSegment.safeParse(segment).success).toBe(false);
    expect(StatusSegment.safeParse({ id: 's', text: 'x'.repeat(MAX_STATUS_TEXT_CHARS) }).success).toBe(true);
  });

  test('a panel over its row cap or its byte cap is refused, on declaration and on update', () => {
    expect(firstMessage({ kind: 'panel', id: 'p', title: 'P', sections: [{ rows: rows(MAX_PANEL_ROWS + 1) }] })).toBe('a panel section has at most 200 rows');
    const big = { id: 'p', title: 'P', sections: Array.from({ length: 20 }, () => ({ rows: rows(10, 'x'.repeat(400)) })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_PANEL_BYTES);
    expect(firstMessage({ kind: 'panel', ...big })).toBe('a panel is at most 65,536 bytes as JSON');
    expect(PanelViewModel.safeParse(big).success).toBe(false);
    expect(PanelViewModel.safeParse({ id: 'p', title: 'P', sections: [{ rows: rows(3) }] }).success).toBe(true);
  });

  test('a command path deeper than the cap or a help line over the cap is refused', () => {
    const command = { kind: 'command', path: ['a'], help: 'h' };
    expect(firstMessage(command)).toBeNull();
    expect(firstMessage({ ...command, path: Array.from({ length: MAX_COMMAND_DEPTH + 1 }, () => 'a') })).toBe('a command path has at most 6 words');
    expect(firstMessage({ ...command, help: 'h'.repeat(MAX_COMMAND_HELP_CHARS + 1) })).toBe("a command's help is at most 300 characters");
  });

  test('a provider with more models than the cap is refused', () => {
    const models = Array.from({ length: MAX_PROVIDER_MODELS + 1 }, (_, i) => ({ id: `m${i}`, contextWindow: 1000 }));
    expect(firstMessage({ kind: 'provider', id: 'p', flavor: 'x', models })).toBe('a provider has at most 1,000 models');
  });
});

const allowance = { kind: 'allowance', id: 'budget', scope: '*', limit: 100, unit: '%' };

test('an allowance may say it limits nothing, with a boolean and nothing else', () => {
  expect(Contribution.safeParse({ ...allowance, inactive: true }).success).toBe(true);
  expect(AllowanceVerdict.safeParse({ allowed: true, inactive: true }).success).toBe(true);
  for (const bad of ['yes', 1, null, {}]) {
    expect(Contribution.safeParse({ ...allowance, inactive: bad }).success).toBe(false);
    expect(AllowanceVerdict.safeParse({ allowed: true, inactive: bad }).success).toBe(false);
  }
});

const promptBlock = { kind: 'promptBlock', id: 'recall', position: 'tail' };

test("a prompt block may say it holds for a run with cache 'run', and with nothing else", () => {
  expect(Contribution.safeParse({ ...promptBlock, cache: 'run' }).success).toBe(true);
  expect(Contribution.safeParse(promptBlock).success).toBe(true);
  for (const bad of ['always', 'RUN', '', true, 1, null, {}, ['run']]) expect(Contribution.safeParse({ ...promptBlock, cache: bad }).success).toBe(false);
});
