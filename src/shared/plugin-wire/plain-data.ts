// A check for "plain data", without zod (the plugin side of the pipe never loads it): null (and undefined,
// which JSON leaves out), booleans,
// finite numbers, strings, arrays, and objects whose prototype is Object.prototype or null and which have no
// `__proto__` key. Nothing else crosses the plugin pipe: no functions, class instances, Maps, Dates,
// typed arrays, ports, getters, cycles, or keys that rewrite prototypes when copied.

/** Nesting deeper than this is refused (a cycle reaches it too). */
export const MAX_PLAIN_DEPTH = 64;

export type PlainCheck = { ok: true; bytes: number } | { ok: false; reason: string };

/**
 * Walks `value` and returns its approximate JSON size in bytes (strings counted as UTF-16 code units plus
 * quotes), or why it is not plain data. The walk stops as soon as the size passes `maxBytes`, so its cost is
 * bounded by the cap even for a graph that shares one object many times.
 */
export function checkPlainData(value: unknown, maxBytes: number = Number.POSITIVE_INFINITY): PlainCheck {
  let bytes = 0;
  let problem: string | null = null;
  const visit = (v: unknown, depth: number): boolean => {
    if (bytes > maxBytes) return false;
    if (v === null || v === undefined) {
      bytes += 4;
      return true;
    }
    switch (typeof v) {
      case 'string':
        bytes += v.length + 2;
        return true;
      case 'boolean':
        bytes += 5;
        return true;
      case 'number':
        if (!Number.isFinite(v)) return fail('a number that is not finite');
        bytes += 8;
        return true;
      case 'object':
        break;
      default:
        return fail(`a value of type ${typeof v}`);
    }
    if (depth >= MAX_PLAIN_DEPTH) return fail(`nesting deeper than ${MAX_PLAIN_DEPTH} levels`);
    bytes += 2;
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return fail('an array with another prototype');
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) return fail('an array with holes');
        if (!visit(v[i], depth + 1)) return false;
        bytes += 1;
      }
      return true;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return fail('an object that is not a plain object');
    for (const key of Object.keys(v)) {
      if (key === '__proto__') return fail('a key named __proto__');
      const desc = Object.getOwnPropertyDescriptor(v, key);
      if (!desc || !('value' in desc)) return fail('an accessor property');
      bytes += key.length + 4;
      if (!visit(desc.value, depth + 1)) return false;
    }
    if (Object.getOwnPropertySymbols(v).length > 0) return fail('a symbol key');
    return true;
  };
  const fail = (reason: string): false => {
    problem = reason;
    return false;
  };
  visit(value, 0);
  if (problem !== null) return { ok: false, reason: `it holds ${problem}` };
  return { ok: true, bytes };
}
