import type Database from 'better-sqlite3';

/**
 * The small tables that live beside the sessions in the same file: app-wide key/value settings and each
 * plugin's on/off state. Values are stored as given; the typed settings service parses them.
 */
export class SettingsStore {
  readonly #q: ReturnType<typeof prepare>;
  readonly #clock: () => number;

  constructor(db: Database.Database, clock: () => number = Date.now) {
    this.#q = prepare(db);
    this.#clock = clock;
  }

  getSetting(key: string): string | null {
    return (this.#q.getSetting.get(key) as { value: string } | undefined)?.value ?? null;
  }

  /** Stores `value` under `key`; null removes the key. */
  setSetting(key: string, value: string | null): void {
    if (value === null) this.#q.deleteSetting.run(key);
    else this.#q.setSetting.run(key, value);
  }

  pluginStates(): Map<string, boolean> {
    const rows = this.#q.pluginStates.all() as { plugin_id: string; enabled: number }[];
    return new Map(rows.map((r) => [r.plugin_id, r.enabled === 1]));
  }

  setPluginState(pluginId: string, enabled: boolean): void {
    this.#q.setPluginState.run(pluginId, enabled ? 1 : 0, this.#clock());
  }
}

function prepare(db: Database.Database) {
  return {
    getSetting: db.prepare(`SELECT value FROM settings WHERE key = ?`),
    setSetting: db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`),
    deleteSetting: db.prepare(`DELETE FROM settings WHERE key = ?`),
    pluginStates: db.prepare(`SELECT plugin_id, enabled FROM plugin_states`),
    setPluginState: db.prepare(
      `INSERT INTO plugin_states (plugin_id, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(plugin_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    ),
  };
}
