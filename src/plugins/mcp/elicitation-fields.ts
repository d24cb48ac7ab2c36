import type { ElicitationField } from '../../shared/elicitation/index.ts';

// An MCP server's `requestedSchema` (a flat object of primitive properties: strings with their formats,
// numbers and integers with their bounds, booleans, enums titled or not, single or multiple) as the fields of
// Amber's form. What the specification does not allow is refused with a sentence, so the server learns why.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function options(values: unknown, labels?: unknown): { value: string; label: string }[] | null {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return null;
  const names = Array.isArray(labels) && labels.length === values.length && labels.every((l) => typeof l === 'string') ? (labels as string[]) : null;
  return (values as string[]).map((value, i) => ({ value, label: names?.[i] ?? value }));
}

/** `oneOf`/`anyOf` of `{ const, title }`: a titled enum. */
function titled(list: unknown): { value: string; label: string }[] | null {
  if (!Array.isArray(list) || list.length === 0) return null;
  const out: { value: string; label: string }[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item['const'] !== 'string') return null;
    out.push({ value: item['const'], label: str(item['title']) ?? item['const'] });
  }
  return out;
}

function field(name: string, p: Json, required: boolean): ElicitationField {
  const common = {
    name,
    required,
    ...(str(p['title']) ? { title: str(p['title'])!.slice(0, 200) } : {}),
    ...(str(p['description']) ? { description: str(p['description'])!.slice(0, 1000) } : {}),
  };
  const type = p['type'];
  if (type === 'string') {
    const choices = options(p['enum'], p['enumNames']) ?? titled(p['oneOf']) ?? titled(p['anyOf']);
    if (choices) return { kind: 'choice', ...common, options: choices, ...(str(p['default']) !== undefined ? { default: str(p['default'])! } : {}) };
    const format = str(p['format']);
    return {
      kind: 'text',
      ...common,
      ...(format && FORMATS.has(format) ? { format: format as 'email' } : {}),
      ...(num(p['minLength']) !== undefined ? { minLength: num(p['minLength'])! } : {}),
      ...(num(p['maxLength']) !== undefined ? { maxLength: num(p['maxLength'])! } : {}),
      ...(str(p['default']) !== undefined ? { default: str(p['default'])! } : {}),
    };
  }
  if (type === 'number' || type === 'integer') {
    return {
      kind: type,
      ...common,
      ...(num(p['minimum']) !== undefined ? { minimum: num(p['minimum'])! } : {}),
      ...(num(p['maximum']) !== undefined ? { maximum: num(p['maximum'])! } : {}),
      ...(num(p['default']) !== undefined ? { default: num(p['default'])! } : {}),
    };
  }
  if (type === 'boolean') return { kind: 'boolean', ...common, ...(typeof p['default'] === 'boolean' ? { default: p['default'] } : {}) };
  if (type === 'array' && isObject(p['items'])) {
    const items = p['items'];
    const choices = options(items['enum']) ?? titled(items['anyOf']) ?? titled(items['oneOf']);
    if (choices) {
      const defaults = Array.isArray(p['default']) ? p['default'].filter((d): d is string => typeof d === 'string') : undefined;
      return {
        kind: 'choices',
        ...common,
        options: choices,
        ...(num(p['minItems']) !== undefined ? { minItems: num(p['minItems'])! } : {}),
        ...(num(p['maxItems']) !== undefined ? { maxItems: num(p['maxItems'])! } : {}),
        ...(defaults ? { default: defaults } : {}),
      };
    }
  }
  throw new Error(`The field '${name}' is of a kind a form cannot ask for (${JSON.stringify(type ?? null)}): fields are text, numbers, yes/no or choices.`);
}

/** The form's fields, in the schema's order; throws a sentence for a schema that is not a flat object of primitives. */
export function elicitationFields(schema: unknown): ElicitationField[] {
  if (!isObject(schema) || schema['type'] !== 'object' || !isObject(schema['properties']))
    throw new Error('The requested schema is not an object with properties.');
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(schema['properties']).map(([name, p]) => {
    if (!isObject(p)) throw new Error(`The field '${name}' has no schema.`);
    return field(name, p, required.has(name));
  });
}
