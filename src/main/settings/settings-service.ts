import { type Disposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import {
  CORE_SETTINGS,
  type CoreSettingId,
  type CoreSettingKey,
  type CoreSettingValue,
  PLUGIN_SETTING_ID,
  type SettingFormat,
  type SettingSpec,
  storedSettingKey,
} from '../../shared/settings/index.ts';
import { AmberError } from '../errors.ts';

/** The two calls of the settings table (the session database has them). Only this service calls them. */
export interface SettingsStore {
  getSetting(key: string): string | null;
  setSetting(key: string, value: string | null): void;
}

export interface SettingsServiceOptions {
  store: SettingsStore;
  /** Where an unreadable stored value is reported (once per key and value). Default: console.warn. */
  warn?: (message: string) => void;
}

/** A setting changed: its key, and the conversation or plugin id for a scoped one (null for a global one). */
export interface SettingChange {
  key: CoreSettingKey;
  id: string | null;
}

/** The conversation or plugin id of a scoped setting, then the value (null clears the setting). */
type SetArgs<K extends CoreSettingKey> = [...CoreSettingId<K>, value: CoreSettingValue<K> | null];

const CONVERSATION_ID = /^\S{1,200}$/;

/**
 * Amber's own settings (CORE_SETTINGS), typed, over the settings table. A value that is not stored reads as
 * its default; one that cannot be read (bad JSON, out of its schema) reads as its default too, and is
 * logged — except a key that refuses corrupt values (the tool rules), whose read then throws. A value is
 * checked against its schema before it is stored: nothing is stored unless it fits. Null clears.
 */
export class SettingsService implements Disposable {
  readonly #store: SettingsStore;
  readonly #warn: (message: string) => void;
  readonly #warned = new Set<string>();
  readonly #changed = new Emitter<SettingChange>((e) => console.error('A settings listener failed', e));

  /** Fired after every write made through this service, a clear included. */
  readonly onDidChange: Event<SettingChange> = this.#changed.event;

  constructor(options: SettingsServiceOptions) {
    this.#store = options.store;
    this.#warn = options.warn ?? ((message) => console.warn(message));
  }

  get<K extends CoreSettingKey>(key: K, ...id: CoreSettingId<K>): CoreSettingValue<K> {
    const found = this.find(key, ...id);
    return found === undefined ? (CORE_SETTINGS[key].default as CoreSettingValue<K>) : found;
  }

  /**
   * The stored value, or `undefined` when none is stored or it cannot be read (logged): for an owner whose
   * default is not the table's (the policy's default mode).
   */
  find<K extends CoreSettingKey>(key: K, ...id: CoreSettingId<K>): CoreSettingValue<K> | undefined {
    const spec: SettingSpec = CORE_SETTINGS[key];
    const stored = storedSettingKey(key, checkedId(key, id[0] ?? null));
    const raw = this.#store.getSetting(stored);
    if (raw === null) return undefined;
    const parsed = spec.schema.safeParse(decode(raw, spec.format));
    if (parsed.success) return parsed.data as CoreSettingValue<K>;
    if (spec.refuseCorrupt !== undefined) throw new AmberError('internal', spec.refuseCorrupt);
    // Remembered by key and a short mark of the value: a huge corrupt value is not kept whole.
    const seen = `${stored}\0${raw.length}\0${raw.slice(0, 200)}`;
    if (!this.#warned.has(seen)) {
      this.#warned.add(seen);
      this.#warn(
        `amber: the setting ${stored} holds a value that cannot be read (${preview(raw)}); it reads as its default, ${JSON.stringify(spec.default)}, until it is set again.`,
      );
    }
    return undefined;
  }

  /** Stores a value after checking it against the key's schema (throws `invalid_input`, storing nothing); null clears. */
  set<K extends CoreSettingKey>(key: K, ...args: SetArgs<K>): void {
    const spec: SettingSpec = CORE_SETTINGS[key];
    const value = args.at(-1) as unknown;
    const id = spec.scope === 'global' ? null : checkedId(key, args[0]);
    const stored = storedSettingKey(key, id);
    if (value === null) {
      this.#store.setSetting(stored, null);
    } else {
      const parsed = spec.schema.safeParse(value);
      if (!parsed.success)
        throw new AmberError('invalid_input', `The setting ${key} cannot hold that value: ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
      this.#store.setSetting(stored, encode(parsed.data, spec.format));
    }
    this.#changed.fire({ key, id });
  }

  /** Removes the stored value: the setting reads as its default again. */
  clear<K extends CoreSettingKey>(key: K, ...id: CoreSettingId<K>): void {
    const scoped = checkedId(key, id[0] ?? null);
    this.#store.setSetting(storedSettingKey(key, scoped), null);
    this.#changed.fire({ key, id: scoped });
  }

  dispose(): void {
    this.#changed.dispose();
  }
}

function checkedId(key: CoreSettingKey, id: unknown): string | null {
  const scope = CORE_SETTINGS[key].scope;
  if (scope === 'global') return null;
  const ok = typeof id === 'string' && (scope === 'plugin' ? PLUGIN_SETTING_ID.test(id) : CONVERSATION_ID.test(id));
  if (!ok) throw new AmberError('invalid_input', `The setting ${key} is kept per ${scope}, and '${String(id).slice(0, 80)}' is not a ${scope} id.`);
  return id;
}

function decode(raw: string, format: SettingFormat): unknown {
  switch (format) {
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        return undefined;
      }
    case 'text':
      return raw;
    case 'number':
      return raw.trim() === '' ? undefined : Number(raw);
    case 'flag':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
}

function encode(value: unknown, format: SettingFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(value);
    case 'text':
    case 'number':
      return String(value);
    case 'flag':
      return value === true ? 'true' : 'false';
  }
}

function preview(raw: string): string {
  const flat = raw.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${JSON.stringify(flat.slice(0, 60))}…` : JSON.stringify(flat);
}
