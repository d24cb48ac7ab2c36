import { z } from 'zod';
import { jsonLimitExceeded } from './declaration-limits.ts';

// A plugin's settings, declared in its manifest as a small subset of JSON Schema: strings (optionally an
// enum, optionally `secret: true`), numbers and integers, booleans, and arrays of strings, each with a
// title, description and default. Fields sit at the top level or in one level of groups
// (`{ type: 'object', properties }`), so a field's key is `name` or `group.name`: the config object the
// plugin reads is nested the same way (`openrouter.apiKey` is `config.openrouter.apiKey`).

/** The manifest's `configuration`, as JSON text. */
export const MAX_CONFIG_SCHEMA_BYTES = 32 * 1024;
/** Fields in one plugin's configuration, groups' fields included. */
export const MAX_CONFIG_FIELDS = 128;
/** Options of one enum. */
export const MAX_CONFIG_ENUM_OPTIONS = 64;
/** A string setting's value, and each string in an array setting. */
export const MAX_CONFIG_STRING_CHARS = 4096;
/** Strings in an array setting. */
export const MAX_CONFIG_ARRAY_ITEMS = 256;
const MAX_TITLE_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 2000;

/** A setting's own name: no dots, which join a group's name and its field's. */
export const ConfigKeyName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a setting name is a letter, then up to 63 letters, digits or _');

const text = { title: z.string().max(MAX_TITLE_CHARS).optional(), description: z.string().max(MAX_DESCRIPTION_CHARS).optional() };
const ConfigString = z.string().max(MAX_CONFIG_STRING_CHARS);

export const StringSetting = z
  .object({
    type: z.literal('string'),
    ...text,
    default: ConfigString.optional(),
    enum: z.array(z.string().max(MAX_TITLE_CHARS)).min(1).max(MAX_CONFIG_ENUM_OPTIONS).optional(),
    minLength: z.number().int().nonnegative().max(MAX_CONFIG_STRING_CHARS).optional(),
    maxLength: z.number().int().nonnegative().max(MAX_CONFIG_STRING_CHARS).optional(),
    /** Kept in the secret store, shown masked, sent only to this plugin's process. */
    secret: z.boolean().optional(),
    /**
     * On a secret: the setting beside it (in the same group, or at the top level for a top-level secret)
     * that says where it is sent, such as its service's URL. Changing that setting drops the stored secret
     * (a key for one server never goes to another) unless the same change gives a new one.
     */
    boundTo: ConfigKeyName.optional(),
  })
  .strict();
export type StringSetting = z.infer<typeof StringSetting>;

/** What a number setting counts (see NumberSetting's `unit`). */
export const NumberUnit = z.enum(['usd', 'tokens', 'fraction', 'ms', 'seconds', 'minutes']);
export type NumberUnit = z.infer<typeof NumberUnit>;

export const NumberSetting = z
  .object({
    type: z.enum(['number', 'integer']),
    ...text,
    default: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    /**
     * What the number counts, for the form to show beside it: dollars ($ before it), tokens, time, or a
     * fraction of one, which the form shows and takes as a percentage (0.8 is 80 %). The value stays as declared.
     */
    unit: NumberUnit.optional(),
  })
  .strict();
export type NumberSetting = z.infer<typeof NumberSetting>;

export const BooleanSetting = z.object({ type: z.literal('boolean'), ...text, default: z.boolean().optional() }).strict();
export type BooleanSetting = z.infer<typeof BooleanSetting>;

export const StringListSetting = z
  .object({
    type: z.literal('array'),
    ...text,
    items: z.object({ type: z.literal('string'), enum: z.array(z.string().max(MAX_TITLE_CHARS)).min(1).max(MAX_CONFIG_ENUM_OPTIONS).optional() }).strict(),
    default: z.array(ConfigString).max(MAX_CONFIG_ARRAY_ITEMS).optional(),
    maxItems: z.number().int().nonnegative().max(MAX_CONFIG_ARRAY_ITEMS).optional(),
  })
  .strict();
export type StringListSetting = z.infer<typeof StringListSetting>;

export const ConfigSetting = z.discriminatedUnion('type', [StringSetting, NumberSetting, BooleanSetting, StringListSetting]);
export type ConfigSetting = z.infer<typeof ConfigSetting>;

export const ConfigGroup = z.object({ type: z.literal('object'), ...text, properties: z.record(ConfigKeyName, ConfigSetting) }).strict();
export type ConfigGroup = z.infer<typeof ConfigGroup>;

/** The manifest's `configuration`: an object schema whose properties are settings or groups of settings. */
export const PluginConfigSchema = z
  .object({
    type: z.literal('object'),
    ...text,
    properties: z.record(ConfigKeyName, z.union([ConfigSetting, ConfigGroup])),
  })
  .strict()
  .superRefine((schema, ctx) => {
    if (jsonLimitExceeded(schema, { depth: 8, bytes: MAX_CONFIG_SCHEMA_BYTES }) !== null) {
      ctx.addIssue({ code: 'custom', message: `a configuration schema is at most ${MAX_CONFIG_SCHEMA_BYTES / 1024} KB as JSON` });
    }
    const fields = configFields(schema);
    if (fields.length > MAX_CONFIG_FIELDS) ctx.addIssue({ code: 'custom', message: `a configuration has at most ${MAX_CONFIG_FIELDS} settings` });
    const byKey = new Map(fields.map((f) => [f.key, f.setting]));
    for (const f of fields) {
      const path = ['properties', ...f.key.split('.').flatMap((k, i, all) => (i < all.length - 1 ? [k, 'properties'] : [k]))];
      const problem = defaultProblem(f.setting) ?? boundProblem(f, byKey);
      if (problem) ctx.addIssue({ code: 'custom', path, message: problem });
    }
  });
export type PluginConfigSchema = z.infer<typeof PluginConfigSchema>;

/** One setting, flattened out of its group. */
export interface ConfigField {
  /** `name` or `group.name`. */
  key: string;
  setting: ConfigSetting;
  /** The group's title (or name) when the setting is in one. */
  group: string | null;
}

/** Every setting of a schema, in declaration order. */
export function configFields(schema: Pick<PluginConfigSchema, 'properties'>): ConfigField[] {
  const out: ConfigField[] = [];
  for (const [name, node] of Object.entries(schema.properties)) {
    if (node.type === 'object') {
      for (const [inner, setting] of Object.entries(node.properties)) out.push({ key: `${name}.${inner}`, setting, group: node.title ?? name });
    } else out.push({ key: name, setting: node, group: null });
  }
  return out;
}

/** The keys of the settings marked `secret: true`. */
export function secretKeys(schema: Pick<PluginConfigSchema, 'properties'> | undefined): string[] {
  return schema
    ? configFields(schema)
        .filter((f) => f.setting.type === 'string' && f.setting.secret === true)
        .map((f) => f.key)
    : [];
}

/** The key of the setting a secret is bound to (`boundTo`, beside it), or null. */
export function boundKey(field: ConfigField): string | null {
  if (field.setting.type !== 'string' || field.setting.boundTo === undefined) return null;
  const dot = field.key.lastIndexOf('.');
  return dot === -1 ? field.setting.boundTo : `${field.key.slice(0, dot)}.${field.setting.boundTo}`;
}

/** Each secret bound to another setting (`boundTo`), by key: changing `target` drops `secret`. */
export function secretBindings(schema: Pick<PluginConfigSchema, 'properties'> | undefined): { secret: string; target: string }[] {
  if (!schema) return [];
  return configFields(schema).flatMap((f) => {
    const target = boundKey(f);
    return target === null ? [] : [{ secret: f.key, target }];
  });
}

/** A value a setting can take, as it crosses the API: null resets the setting to its default (or clears a secret). */
export const ConfigValue = z.union([ConfigString, z.number().finite(), z.boolean(), z.array(ConfigString).max(MAX_CONFIG_ARRAY_ITEMS)]);
export type ConfigValue = z.infer<typeof ConfigValue>;

/**
 * Why `value` does not fit `setting`, as the end of a sentence (`must be a whole number`), or null when it
 * fits. The form checks input with this; main checks again with ajv against the whole schema.
 */
export function settingProblem(setting: ConfigSetting, value: unknown): string | null {
  switch (setting.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (value.length > MAX_CONFIG_STRING_CHARS) return `must be at most ${MAX_CONFIG_STRING_CHARS.toLocaleString('en')} characters`;
      if (setting.enum && !setting.enum.includes(value)) return `must be one of ${setting.enum.join(', ')}`;
      if (setting.minLength !== undefined && value.length < setting.minLength) return `must be at least ${setting.minLength} characters`;
      if (setting.maxLength !== undefined && value.length > setting.maxLength) return `must be at most ${setting.maxLength} characters`;
      return null;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (setting.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (setting.minimum !== undefined && value < setting.minimum) return `must be at least ${setting.minimum}`;
      if (setting.maximum !== undefined && value > setting.maximum) return `must be at most ${setting.maximum}`;
      if (setting.exclusiveMinimum !== undefined && value <= setting.exclusiveMinimum) return `must be more than ${setting.exclusiveMinimum}`;
      if (setting.exclusiveMaximum !== undefined && value >= setting.exclusiveMaximum) return `must be less than ${setting.exclusiveMaximum}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'array': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'must be a list of text';
      const max = Math.min(setting.maxItems ?? MAX_CONFIG_ARRAY_ITEMS, MAX_CONFIG_ARRAY_ITEMS);
      if (value.length > max) return `must have at most ${max} items`;
      const options = setting.items.enum;
      const odd = options ? value.find((v) => !options.includes(v as string)) : undefined;
      if (odd !== undefined) return `must list only ${options!.join(', ')} ('${odd}' is not one)`;
      if (value.some((v) => (v as string).length > MAX_CONFIG_STRING_CHARS))
        return `must hold items of at most ${MAX_CONFIG_STRING_CHARS.toLocaleString('en')} characters`;
      return null;
    }
  }
}

/**
 * Text the user typed (the form's input, the rest of a `/set` line) as the setting's value: numbers parsed,
 * `true`/`false`/`on`/`off` for booleans, a list split at commas. Returns the problem instead when it cannot.
 */
export function parseSettingText(setting: ConfigSetting, input: string): { ok: true; value: ConfigValue } | { ok: false; problem: string } {
  let value: ConfigValue;
  const trimmed = input.trim();
  switch (setting.type) {
    case 'string':
      value = setting.secret ? trimmed : input;
      break;
    case 'number':
    case 'integer':
      if (trimmed === '' || !Number.isFinite(Number(trimmed))) return { ok: false, problem: 'must be a number' };
      value = Number(trimmed);
      break;
    case 'boolean':
      if (/^(true|on|yes)$/i.test(trimmed)) value = true;
      else if (/^(false|off|no)$/i.test(trimmed)) value = false;
      else return { ok: false, problem: 'must be true or false' };
      break;
    case 'array':
      value =
        trimmed === ''
          ? []
          : trimmed
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '');
      break;
  }
  const problem = settingProblem(setting, value);
  return problem === null ? { ok: true, value } : { ok: false, problem };
}

function boundProblem(field: ConfigField, byKey: ReadonlyMap<string, ConfigSetting>): string | null {
  const target = boundKey(field);
  if (target === null) return null;
  if (field.setting.type !== 'string' || field.setting.secret !== true) return 'only a secret setting is bound to another';
  const bound = byKey.get(target);
  if (!bound) return `boundTo names '${target}', which is not a setting beside it`;
  if (bound.type === 'string' && bound.secret === true) return `boundTo names '${target}', which is secret itself`;
  return null;
}

function defaultProblem(setting: ConfigSetting): string | null {
  if (setting.default === undefined) return null;
  if (setting.type === 'string' && setting.secret) return 'a secret setting has no default';
  const problem = settingProblem(setting, setting.default);
  return problem === null ? null : `the default ${problem}`;
}
