import { type Config, expandPath, getPath, setPath, takePath } from '../../shared/config-path.ts';
import { PLUGIN_SETTING_ID } from '../../shared/settings/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { SecretStore } from './secret-store.ts';

/**
 * Which config fields of which plugin are secret: plugin id → dotted paths into its config object
 * (`openrouter.apiKey` is the `apiKey` of the object under `openrouter`). Data, so that settings a manifest
 * marks secret can be added to it.
 */
export type SecretFields = Readonly<Record<string, readonly string[]>>;

/**
 * Secret settings known without a manifest: the wallet plugin's account keys (kept so that keys stored
 * before its manifest declared them are still moved out of the database), and every environment value and
 * header of an MCP server, and its OAuth sign-in (`oauth.<server>`: tokens and client registration as one JSON text). Manifests add theirs (`secret: true`). A `*` stands for every key at that level
 * (a key holding a `.` is left out); a wildcard field moved out keeps its key in the database with an empty
 * value, so the shape is known.
 */
export const PLUGIN_SECRET_FIELDS: SecretFields = {
  wallet: ['openrouter.apiKey', 'deepseek.apiKey'],
  mcp: ['servers.*.env.*', 'servers.*.headers.*', 'oauth.*'],
};

/**
 * Secrets bound to the setting that says where they are sent: plugin id → pairs of dotted paths. When the
 * value at `target` changes, the secret at `secret` is dropped unless the same write gives it a new value,
 * so a key entered for one server never goes to another. A `*` in `target` stands for the part of the
 * secret's path at the same `*` (`servers.*.url` of `servers.*.headers.*` is the URL of the same server).
 */
export type SecretBindings = Readonly<Record<string, readonly { secret: string; target: string }[]>>;

/**
 * Bindings known without a manifest: the wallet's account keys follow their base URL (its manifest says so
 * too, with `boundTo`), and an MCP server's environment values and headers follow its command, arguments
 * and URL. Manifests add theirs (`boundTo`).
 */
export const PLUGIN_SECRET_BINDINGS: SecretBindings = {
  wallet: [
    { secret: 'openrouter.apiKey', target: 'openrouter.baseUrl' },
    { secret: 'deepseek.apiKey', target: 'deepseek.baseUrl' },
  ],
  mcp: [
    ...['env', 'headers'].flatMap((kind) => ['command', 'args', 'url'].map((target) => ({ secret: `servers.*.${kind}.*`, target: `servers.*.${target}` }))),
    // A server's OAuth sign-in goes when its URL changes (the plugin also drops a record made for another URL).
    { secret: 'oauth.*', target: 'servers.*.url' },
  ],
};

/** Plugin ids are `[a-z0-9_]+`, so these names never meet another plugin's or a provider's (`provider.<id>.apiKey`). */
const secretName = (pluginId: string, path: string): string => `plugin.${pluginId}.${path}`;

/**
 * Plugin settings marked secret: kept in the secret store, never in the settings table (the database), and
 * merged only into the config of the plugin that owns them — which main sends to that plugin's process
 * alone. Secret values found in the stored config (written before this existed, or by hand) are moved out
 * when seen: by `migrate()` at start, and at any later read.
 */
export class PluginSecrets {
  readonly #settings: SettingsService;
  readonly #secrets: SecretStore;
  readonly #fields: () => SecretFields;
  readonly #bindings: () => SecretBindings;
  readonly #warn: (message: string) => void;

  /**
   * `fields` and `bindings` may be functions, read at every use: the secret settings the plugins' manifests
   * declare change when a plugin is added.
   */
  constructor(
    settings: SettingsService,
    secrets: SecretStore,
    options: { fields?: SecretFields | (() => SecretFields); bindings?: SecretBindings | (() => SecretBindings); warn?: (message: string) => void } = {},
  ) {
    this.#settings = settings;
    this.#secrets = secrets;
    const fields = options.fields ?? PLUGIN_SECRET_FIELDS;
    this.#fields = typeof fields === 'function' ? fields : () => fields;
    const bindings = options.bindings ?? PLUGIN_SECRET_BINDINGS;
    this.#bindings = typeof bindings === 'function' ? bindings : () => bindings;
    this.#warn = options.warn ?? ((m) => console.warn(m));
  }

  /**
   * Moves every secret value still in a stored plugin config into the secret store. Idempotent; never
   * throws (a key that cannot be moved stays where it was, and a warning says why). Returns how many moved.
   */
  migrate(): number {
    let moved = 0;
    for (const pluginId of Object.keys(this.#fields())) moved += this.#moveOut(pluginId, this.#stored(pluginId));
    return moved;
  }

  /** The config for `pluginId`'s own process: its stored config with its secrets merged in. */
  config(pluginId: string): Config {
    const stored = this.#stored(pluginId);
    this.#moveOut(pluginId, stored);
    const config = structuredClone(stored);
    for (const path of this.#concrete(pluginId, stored)) {
      const value = this.#secrets.get(secretName(pluginId, path));
      if (value !== null) setPath(config, path, value);
    }
    return config;
  }

  /**
   * The write path for a plugin's config: secret fields go to the secret store (a string sets the secret,
   * null or '' clears it, absent keeps it; for a wildcard field '' keeps it), everything else to the
   * settings table. A secret whose bound setting changes (SecretBindings) is dropped instead of kept, and a
   * wildcard one leaves the config with it; returns the paths of the stored secrets dropped so.
   */
  write(pluginId: string, config: Config): string[] {
    const rest = structuredClone(config);
    const dropped = this.#unbind(pluginId, this.#stored(pluginId), rest);
    for (const path of this.#paths(pluginId)) {
      const value = takePath(rest, path);
      if (typeof value === 'string' && value.trim()) this.#secrets.set(secretName(pluginId, path), value.trim());
      else if (value === null || value === '') this.#secrets.set(secretName(pluginId, path), null);
    }
    // A wildcard field's value is moved out and its key kept empty; an empty one keeps the stored secret.
    for (const path of this.#patterns(pluginId).flatMap((p) => expandPath(rest, p.split('.')))) {
      const value = getPath(rest, path);
      if (typeof value === 'string' && value !== '') this.#secrets.set(secretName(pluginId, path), value);
      setPath(rest, path, '');
    }
    this.#settings.set('plugin.config', pluginId, rest);
    return dropped;
  }

  /**
   * Drops the stored secrets of `pluginId` whose bound setting differs between `before` and `next`, unless
   * `next` gives them a new value; takes them out of `next`. Returns their paths.
   */
  #unbind(pluginId: string, before: Config, next: Config): string[] {
    const bindings = this.#bindings();
    if (!Object.hasOwn(bindings, pluginId)) return [];
    const dropped = new Set<string>();
    for (const { secret, target } of bindings[pluginId]!) {
      const pattern = secret.split('.');
      const paths = secret.includes('*') ? expandPath(before, pattern) : [secret];
      for (const path of paths) {
        const stars = path.split('.').filter((_, i) => pattern[i] === '*');
        let n = 0;
        const bound = target
          .split('.')
          .map((step) => (step === '*' ? (stars[n++] ?? '*') : step))
          .join('.');
        if (JSON.stringify(getPath(before, bound)) === JSON.stringify(getPath(next, bound))) continue;
        const fresh = getPath(next, path);
        if (typeof fresh === 'string' && fresh.trim() !== '') continue;
        takePath(next, path);
        if (this.#secrets.get(secretName(pluginId, path)) === null) continue;
        this.#secrets.set(secretName(pluginId, path), null);
        dropped.add(path);
      }
    }
    return [...dropped];
  }

  /** The plugin's stored config without its secrets (secrets still in it are moved out first). */
  stored(pluginId: string): Config {
    const stored = this.#stored(pluginId);
    this.#moveOut(pluginId, stored);
    return stored;
  }

  /**
   * Forgets the stored values of the secret settings at `paths` (concrete dotted paths its secret fields
   * cover; any other path is ignored): what a removed MCP server or variable leaves behind.
   */
  forget(pluginId: string, paths: readonly string[]): void {
    const covers = (path: string) => {
      const parts = path.split('.');
      return this.#all(pluginId).some((field) => {
        const f = field.split('.');
        return f.length === parts.length && f.every((step, i) => step === '*' || step === parts[i]);
      });
    };
    for (const path of paths) if (covers(path)) this.#secrets.set(secretName(pluginId, path), null);
  }

  /** Whether the secret setting `path` of `pluginId` holds a value; the value itself never leaves here but for the plugin. */
  hasSecret(pluginId: string, path: string): boolean {
    return this.#paths(pluginId).includes(path) && this.#secrets.get(secretName(pluginId, path)) !== null;
  }

  #all(pluginId: string): readonly string[] {
    const fields = this.#fields();
    return Object.hasOwn(fields, pluginId) ? fields[pluginId]! : [];
  }

  #paths(pluginId: string): readonly string[] {
    return this.#all(pluginId).filter((p) => !p.includes('*'));
  }

  #patterns(pluginId: string): readonly string[] {
    return this.#all(pluginId).filter((p) => p.includes('*'));
  }

  /** The plain secret paths, and the wildcard ones as they occur in `config`. */
  #concrete(pluginId: string, config: Config): string[] {
    return [...this.#paths(pluginId), ...this.#patterns(pluginId).flatMap((p) => expandPath(config, p.split('.')))];
  }

  #stored(pluginId: string): Config {
    // No plugin has an id of another shape: such an id has nothing stored.
    return PLUGIN_SETTING_ID.test(pluginId) ? this.#settings.get('plugin.config', pluginId) : {};
  }

  /** Strips the secrets out of `stored` (in place) into the secret store, then rewrites the setting. */
  #moveOut(pluginId: string, stored: Config): number {
    const found = this.#paths(pluginId).filter((path) => getPath(stored, path) !== undefined);
    // Wildcard fields stay as empty values: only a value not yet moved counts.
    const wild = this.#patterns(pluginId)
      .flatMap((p) => expandPath(stored, p.split('.')))
      .filter((path) => getPath(stored, path) !== '');
    if (found.length + wild.length === 0) return 0;
    try {
      for (const path of found) {
        const value = takePath(stored, path);
        // A secret field holding something other than a string is not a key: it is dropped, not kept.
        if (typeof value === 'string' && value.trim()) this.#secrets.set(secretName(pluginId, path), value.trim());
      }
      for (const path of wild) {
        const value = getPath(stored, path);
        if (typeof value === 'string' && value !== '') this.#secrets.set(secretName(pluginId, path), value);
        setPath(stored, path, '');
      }
      this.#settings.set('plugin.config', pluginId, stored);
      return found.length + wild.length;
    } catch (e) {
      this.#warn(
        `amber: could not move the '${pluginId}' plugin's keys out of the database (${e instanceof Error ? e.message : String(e)}); they stay there until the key file can be written.`,
      );
      return 0;
    }
  }
}
