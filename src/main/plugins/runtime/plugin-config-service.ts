import { Ajv, type ValidateFunction } from 'ajv';
import { type Config, getPath, setPath, takePath } from '../../../shared/config-path.ts';
import { Emitter, type Event } from '../../../shared/emitter.ts';
import { configFields, type ConfigField, type ConfigValue, type PluginConfigSchema, settingProblem } from '../../../shared/plugins/index.ts';
import { AmberError } from '../../errors.ts';

/** Where plugin settings are kept: secrets apart from the rest (PluginSecrets does this). */
export interface PluginConfigStorage {
  /** The stored config without its secrets. */
  stored(pluginId: string): Config;
  hasSecret(pluginId: string, key: string): boolean;
  /** Writes the whole config: secret keys go to the secret store (a string sets, null clears, absent keeps). */
  write(pluginId: string, config: Config): void;
}

/** A plugin's settings as Settings and `/set` see them: secrets only as whether they are set. */
export interface PluginConfigState {
  pluginId: string;
  schema: PluginConfigSchema;
  /** Non-secret settings that hold a value fitting their schema, by key (`name` or `group.name`). */
  values: Record<string, ConfigValue>;
  /** Secret settings, by key: whether each holds a value. */
  secrets: Record<string, boolean>;
}

export interface PluginConfigServiceOptions {
  /** The plugin's declared settings; null when it declares none. Throws `not_found` for an unknown plugin. */
  schemaOf(pluginId: string): PluginConfigSchema | null;
  storage: PluginConfigStorage;
  /** Called after a change is stored, to make it live (a plugin that is on is started again). */
  applied?: (pluginId: string) => Promise<void>;
}

/**
 * Reads and writes plugins' settings against the schema in their manifest: every write names only declared
 * settings, each value is checked against its setting and then, as a whole, by ajv; secrets go to the
 * secret store and never come back out of here.
 */
export class PluginConfigService {
  readonly #options: PluginConfigServiceOptions;
  readonly #ajv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false });
  /** Validators by schema text; a plugin has one schema at a time, so this holds one per plugin. */
  readonly #validators = new Map<string, { text: string; validate: ValidateFunction }>();
  readonly #changed = new Emitter<string>();
  /** A plugin's settings were stored (by the form, `/set` or any other caller): its id. */
  readonly onDidChange: Event<string> = this.#changed.event;

  constructor(options: PluginConfigServiceOptions) {
    this.#options = options;
  }

  get(pluginId: string): PluginConfigState {
    const schema = this.#schema(pluginId);
    const stored = this.#options.storage.stored(pluginId);
    const values: Record<string, ConfigValue> = {};
    const secrets: Record<string, boolean> = {};
    for (const field of configFields(schema)) {
      if (isSecret(field)) {
        secrets[field.key] = this.#options.storage.hasSecret(pluginId, field.key);
        continue;
      }
      const value = getPath(stored, field.key);
      // A value that does not fit (edited by hand, or from before the schema) is shown as unset.
      if (value !== undefined && settingProblem(field.setting, value) === null) values[field.key] = value as ConfigValue;
    }
    return { pluginId, schema, values, secrets };
  }

  /**
   * Sets the given settings (null resets one to its default, or clears a secret) and leaves the others as
   * they are. Nothing is stored unless every value fits. Resolves once the change is live.
   */
  async set(pluginId: string, changes: Record<string, ConfigValue | null>): Promise<PluginConfigState> {
    const schema = this.#schema(pluginId);
    if (Object.keys(changes).length === 0) return this.get(pluginId);
    const fields = new Map(configFields(schema).map((f) => [f.key, f]));
    const patch: Config = {};
    for (const [key, value] of Object.entries(changes)) {
      const field = fields.get(key);
      if (!field) {
        const known = [...fields.keys()];
        throw new AmberError(
          'invalid_input',
          `'${key}' is not a setting of the plugin '${pluginId}'; its settings are ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.`,
        );
      }
      if (value === null) continue;
      const problem = settingProblem(field.setting, value);
      if (problem) throw new AmberError('invalid_input', `The setting '${key}' ${problem}.`);
      if (isSecret(field) && typeof value === 'string' && value.trim() === '')
        throw new AmberError('invalid_input', `The setting '${key}' is secret: clear it instead of setting it to nothing.`);
      setPath(patch, key, value);
    }
    const validate = this.#validator(pluginId, schema);
    if (!validate(patch)) {
      const error = validate.errors?.[0];
      const at = (error?.instancePath ?? '').split('/').filter(Boolean).join('.');
      throw new AmberError('invalid_input', `The setting '${at || 'configuration'}' ${error?.message ?? 'is not valid'}.`);
    }
    const next = structuredClone(this.#options.storage.stored(pluginId));
    for (const [key, value] of Object.entries(changes)) {
      if (value !== null) setPath(next, key, isSecret(fields.get(key)!) ? (value as string).trim() : value);
      else if (isSecret(fields.get(key)!)) setPath(next, key, null);
      else takePath(next, key);
    }
    this.#options.storage.write(pluginId, next);
    this.#changed.fire(pluginId);
    await this.#options.applied?.(pluginId);
    return this.get(pluginId);
  }

  #schema(pluginId: string): PluginConfigSchema {
    const schema = this.#options.schemaOf(pluginId);
    if (!schema) throw new AmberError('invalid_input', `The plugin '${pluginId}' has no settings.`);
    return schema;
  }

  #validator(pluginId: string, schema: PluginConfigSchema): ValidateFunction {
    const text = JSON.stringify(schema);
    const held = this.#validators.get(pluginId);
    if (held?.text === text) return held.validate;
    if (held) this.#ajv.removeSchema(held.validate.schema as object);
    const validate = this.#ajv.compile(toAjvSchema(schema));
    this.#validators.set(pluginId, { text, validate });
    return validate;
  }
}

const isSecret = (field: ConfigField): boolean => field.setting.type === 'string' && field.setting.secret === true;

/** One setting as ajv checks it: the keywords only the form reads are left out. */
function setting(node: Config): Config {
  const { secret: _secret, boundTo: _boundTo, title: _title, description: _description, ...rest } = node;
  return rest;
}

/** The manifest's schema as ajv checks a change: closed objects (no undeclared keys), nothing required. */
function toAjvSchema(schema: PluginConfigSchema): object {
  const properties: Config = {};
  for (const [name, node] of Object.entries(schema.properties)) {
    if (node.type === 'object') {
      properties[name] = {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, setting(v as Config)])),
      };
    } else properties[name] = setting(node as Config);
  }
  return { type: 'object', additionalProperties: false, properties };
}
