import type Database from 'better-sqlite3';

/**
 * The small tables that live beside the sessions in the same file: app-wide key/value settings and each
 * plugin's on/off state. Values are stored as given; the typed settings service parses them.
 */
export class SettingsStore {
  readonly #q: ReturnType<typeof prepare>;
  readonly #clock: () => number;
  /** Writes made through this store (this connection's own commits do not move PRAGMA data_version). */
  #writes = 0;

  constructor(db: Database.Database, clock: () => number = Date.now) {
    this.#q = prepare(db);
    this.#clock = clock;
  }

  getSetting(key: string): string | null {
    return (this.#q.getSetting.get(key) as { value: string } | undefined)?.value ?? null;
  }

  /** Stores `value` under `key`; null removes the key. */
  setSetting(key: string, value: string | null): void {
    this.#writes++;
    if (value === null) this.#q.deleteSetting.run(key);
    else this.#q.setSetting.run(key, value);
  }

  /**
   * Changes whenever a setting may have changed: a write through this store, or a commit of another
   * connection to the file (it may have written settings). What is built from settings may be kept while it stays.
   */
  revision(): string {
    return `${this.#writes}:${this.#q.dataVersion.get() as number}`;
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
    dataVersion: db.prepare(`PRAGMA data_version`).pluck(),
    pluginStates: db.prepare(`SELECT plugin_id, enabled FROM plugin_states`),
    setPluginState: db.prepare(
      `INSERT INTO plugin_states (plugin_id, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(plugin_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    ),
  };
}
