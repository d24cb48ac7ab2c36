// Dotted paths into plain JSON config objects (`openrouter.apiKey`, `servers.gh.env.TOKEN`), shared by the
// plugin settings and the secret store. A path segment that would reach an object's prototype is never
// walked, read or written: config comes from users and plugins.

export type Config = Record<string, unknown>;

const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);

export const isConfigObject = (v: unknown): v is Config => typeof v === 'object' && v !== null && !Array.isArray(v);

function segments(path: string): string[] | null {
  const parts = path.split('.');
  return parts.some((p) => p === '' || UNSAFE.has(p)) ? null : parts;
}

/** The value at `path`, or undefined when any step is missing (own properties only). */
export function getPath(config: Config, path: string): unknown {
  const parts = segments(path);
  if (!parts) return undefined;
  let at: unknown = config;
  for (const part of parts) {
    if (!isConfigObject(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return at;
}

/** Sets the value at `path`, making the objects on the way; a non-object on the way is replaced. */
export function setPath(config: Config, path: string, value: unknown): void {
  const parts = segments(path);
  if (!parts) throw new Error(`"${path}" is not a setting's path.`);
  const last = parts.pop()!;
  let at = config;
  for (const part of parts) {
    if (!Object.hasOwn(at, part) || !isConfigObject(at[part])) at[part] = {};
    at = at[part] as Config;
  }
  at[last] = value;
}

/** Removes the value at `path` and returns it (undefined when there was none). */
export function takePath(config: Config, path: string): unknown {
  const parts = segments(path);
  if (!parts) return undefined;
  const last = parts.pop()!;
  const parent = parts.length === 0 ? config : getPath(config, parts.join('.'));
  if (!isConfigObject(parent) || !Object.hasOwn(parent, last)) return undefined;
  const value = parent[last];
  delete parent[last];
  return value;
}

/** The paths in `config` that a pattern with `*` parts matches (keys holding a `.`, and unsafe keys, are left out). */
export function expandPath(at: unknown, parts: readonly string[], prefix: readonly string[] = []): string[] {
  if (parts.length === 0) return [prefix.join('.')];
  if (!isConfigObject(at)) return [];
  const [part, ...rest] = parts as [string, ...string[]];
  const keys =
    part === '*' ? Object.keys(at).filter((k) => k !== '' && !k.includes('.') && !UNSAFE.has(k)) : Object.hasOwn(at, part) && !UNSAFE.has(part) ? [part] : [];
  return keys.flatMap((k) => expandPath(at[k], rest, [...prefix, k]));
}
