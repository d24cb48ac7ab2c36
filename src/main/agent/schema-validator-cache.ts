import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { type JsonLimits, jsonLimitExceeded, MAX_TOOL_SCHEMA_BYTES, MAX_TOOL_SCHEMA_DEPTH, MAX_TOOL_SCHEMA_NODES } from '../../shared/plugins/index.ts';
import { errorMessage } from '../errors.ts';

export interface SchemaValidatorCacheOptions {
  /** Compiled schemas kept; the least recently used goes first. */
  capacity?: number;
  /** Default: the declaration caps (MAX_TOOL_SCHEMA_DEPTH, _BYTES, _NODES). */
  limits?: Partial<JsonLimits>;
}

/** A schema's validator, or why it has none, as a sentence ending without a full stop. */
export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

export const DEFAULT_SCHEMA_CACHE_CAPACITY = 256;

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/**
 * JSON Schema `pattern`s run on re2js, in time linear in the input: a pattern a plugin declares cannot stall
 * main on the model's arguments (`^(a+)+$`). Patterns RE2 cannot run (lookaround, backreferences) make the
 * schema invalid. `toString` is ajv's key for a compiled pattern, so it must tell patterns apart.
 */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { test: (input: string) => re.test(input), toString: () => `/${pattern}/${flags}` };
  },
  { code: 're2js' },
);

/**
 * Tool parameter schemas compiled by ajv, keyed by their JSON text and bounded: at most `capacity`
 * validators (least recently used evicted, and removed from ajv too), and no schema is compiled that is
 * deeper or longer than the declaration caps. A schema ajv refuses is an answer for that schema alone.
 */
export class SchemaValidatorCache {
  // `addUsedSchema: false`: a schema's `$id` is not registered in the instance, so two plugins' schemas
  // with the same `$id` cannot collide, nor one keep another's tool from being called.
  readonly #ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: linearRegExp } });
  readonly #entries = new Map<string, { compiled: CompiledSchema; schema: object | null }>();
  /**
   * The key each schema object was compiled under, so that a tool's own spec, checked on every call, is not
   * walked and made canonical again each time. Tool specs are parsed once when a plugin declares them and
   * never changed in place; a schema evicted from `#entries` is checked and keyed again.
   */
  readonly #keys = new WeakMap<object, string>();
  readonly #capacity: number;
  readonly #limits: Required<JsonLimits>;

  constructor(options: SchemaValidatorCacheOptions = {}) {
    this.#capacity = Math.max(1, options.capacity ?? DEFAULT_SCHEMA_CACHE_CAPACITY);
    this.#limits = { depth: MAX_TOOL_SCHEMA_DEPTH, bytes: MAX_TOOL_SCHEMA_BYTES, nodes: MAX_TOOL_SCHEMA_NODES, ...options.limits };
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The validator of `schema`. `keyOf` gives its stable text (e.g. canonical JSON), which must identify it;
   * it is asked only once the schema is known to be within the caps, so its cost is bounded too.
   */
  compile(schema: Record<string, unknown>, keyOf: (schema: Record<string, unknown>) => string = JSON.stringify): CompiledSchema {
    const knownKey = this.#keys.get(schema);
    const known = knownKey === undefined ? undefined : this.#entries.get(knownKey);
    if (knownKey !== undefined && known) {
      this.#entries.delete(knownKey);
      this.#entries.set(knownKey, known);
      return known.compiled;
    }
    // Checked before anything else walks the schema: a deep, cyclic or huge one is refused and not kept.
    const limits = this.#limits;
    const exceeded = jsonLimitExceeded(schema, limits);
    if (exceeded === 'depth') return { ok: false, reason: `its parameter schema is nested more than ${limits.depth} levels deep` };
    if (exceeded === 'size') return { ok: false, reason: `its parameter schema is longer than ${limits.bytes.toLocaleString('en')} bytes as JSON` };
    if (exceeded === 'nodes') return { ok: false, reason: `its parameter schema has more than ${limits.nodes.toLocaleString('en')} objects and arrays` };
    const key = keyOf(schema);
    this.#keys.set(schema, key);
    const hit = this.#entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks it the most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.compiled;
    }
    let compiled: CompiledSchema;
    // A private copy, so that evicting it can drop ajv's own cache entry (keyed by the object).
    let own: object | null = structuredClone(schema);
    try {
      compiled = { ok: true, validate: this.#ajv.compile(own) };
    } catch (e) {
      this.#ajv.removeSchema(own);
      own = null;
      compiled = { ok: false, reason: `its parameter schema is invalid (${errorMessage(e)})` };
    }
    this.#entries.set(key, { compiled, schema: own });
    while (this.#entries.size > this.#capacity) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      if (entry.schema) this.#ajv.removeSchema(entry.schema);
    }
    return compiled;
  }

  /** The text of the validation errors of the last call to `validate`, for the model to read. */
  errorsText(validate: ValidateFunction): string {
    return this.#ajv.errorsText(validate.errors, { dataVar: 'arguments', separator: '; ' });
  }
}
