/**
 * `read`, kept per key while `revision()` answers the same text: for a value built from several owners' state
 * and asked for far more often than that state changes (each plugin's config: its settings, its keys and the
 * catalog's manifests, read for every model call and prompt block). `revision()` null: nothing is kept, each
 * read reads. Values handed out are shared: callers must not change them.
 */
export function revisionMemo<K, V>(read: (key: K) => V, revision: () => string | null): (key: K) => V {
  let at: string | null = null;
  const kept = new Map<K, V>();
  return (key) => {
    const now = revision();
    if (now === null) return read(key);
    if (now !== at) {
      kept.clear();
      at = now;
    }
    if (kept.has(key)) return kept.get(key) as V;
    const value = read(key);
    kept.set(key, value);
    return value;
  };
}
