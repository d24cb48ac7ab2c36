import type { ElicitationField, ElicitationValue } from './elicitation-form.ts';

// The values of a form: what it starts with (each field's default) and whether what the user entered is an
// answer the asker accepts. Pure: the window checks as the user types, main checks again before answering.

/**
 * What the form starts with: each field's default; a required yes/no without one starts unchecked (false);
 * any other field without one is left out (an empty box).
 */
export function elicitationDefaults(fields: readonly ElicitationField[]): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    if (field.default !== undefined) values[field.name] = field.default;
    else if (field.kind === 'boolean' && field.required) values[field.name] = false;
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A URI with a scheme (`https://…`, `mailto:…`); shared code has no URL parser. */
const URI = /^[a-z][a-z0-9+.-]*:[^\s]+$/i;

function textProblem(field: Extract<ElicitationField, { kind: 'text' }>, value: string): string | null {
  if (field.minLength !== undefined && value.length < field.minLength) return `Use at least ${field.minLength} characters.`;
  if (field.maxLength !== undefined && value.length > field.maxLength) return `Use at most ${field.maxLength} characters.`;
  if (field.format === 'email' && !EMAIL.test(value)) return 'Enter an email address, like name@example.com.';
  if (field.format === 'uri' && !URI.test(value)) return 'Enter a full address, like https://example.com.';
  if (field.format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) return 'Enter a date as YYYY-MM-DD.';
  if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'Enter a date and time.';
  return null;
}

function problem(field: ElicitationField, value: ElicitationValue): string | null {
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? textProblem(field, value) : 'Enter text.';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'Enter a whole number.';
      if (field.minimum !== undefined && value < field.minimum) return `Enter ${field.minimum} or more.`;
      if (field.maximum !== undefined && value > field.maximum) return `Enter ${field.maximum} or less.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Choose yes or no.';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? null : 'Choose one of the options.';
    case 'choices': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return 'Choose among the options.';
      if (new Set(value).size !== value.length) return 'Choose each option once.';
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${field.minItems}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${field.maxItems}.`;
      return null;
    }
  }
}

/**
 * Checks the values against the form: every required field filled, each value of its field's kind and within
 * its limits, no value for a field the form does not have. Answers the content to send (empty optional text
 * left out), or one sentence per field that is wrong.
 */
export function checkElicitation(
  fields: readonly ElicitationField[],
  values: Readonly<Record<string, ElicitationValue | undefined>>,
): { ok: true; content: Record<string, ElicitationValue> } | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const content: Record<string, ElicitationValue> = {};
  const names = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(values)) if (!names.has(name) && values[name] !== undefined) problems[name] = 'The form has no such field.';
  for (const field of fields) {
    const value = values[field.name];
    const empty = value === undefined || (field.kind === 'text' && value === '');
    if (empty) {
      if (field.required) problems[field.name] = 'Fill this in: it is required.';
      continue;
    }
    const wrong = problem(field, value);
    if (wrong) problems[field.name] = wrong;
    else content[field.name] = value;
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, content };
}
