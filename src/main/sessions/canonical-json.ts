/**
 * JSON text with every object's keys sorted (UTF-16 order), so that two equal values always give the same
 * text whatever order their keys were written in. Follows JSON.stringify otherwise: undefined and
 * functions are left out of objects and become null in arrays; non-finite numbers become null.
 * Idempotent: canonicalJson(JSON.parse(canonicalJson(v))) === canonicalJson(v).
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${write(value[i]) ?? 'null'}`;
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const text = write(record[key]);
        if (text === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined; // undefined, functions, symbols: left out, as JSON.stringify does
  }
}
