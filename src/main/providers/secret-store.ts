import { type BigIntStats, chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AmberError } from '../errors.ts';

/** Where API keys live: never in the session database, never sent to the renderer or written to a log. */
export interface SecretStore {
  get(name: string): string | null;
  set(name: string, value: string | null): void;
  /**
   * Changes whenever a key may have changed (null: it cannot tell, or a change may not show yet), so that
   * what is built from the keys may be kept while it stays.
   */
  revision?(): string | null;
}

/** How values are sealed on disk: the desktop shell passes Electron's safeStorage; plain text otherwise. */
export interface SecretCodec {
  encrypted: boolean;
  /** Why an unencrypted codec does not encrypt, told once when the first key is written. */
  unencryptedReason?: string;
  encode(value: string): string;
  decode(stored: string): string;
}

/**
 * A file written less than this long ago is not kept: a file system's clock may be coarse enough that a second
 * write of the same size within it leaves the same times (git's "racy" entries, the same cure).
 */
const RACY_MS = 2000;

/** The file as it is now: the same text for the same file, size and times. */
const stampOf = (stat: BigIntStats): string => `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;

const plain: SecretCodec = { encrypted: false, encode: (v) => v, decode: (v) => v };
const SecretsFile = z.record(z.string(), z.string());

/**
 * Secrets in one JSON file readable only by its owner (mode 0600), replaced atomically. Without an
 * encrypting codec (the headless shell), the first write warns that keys are stored unencrypted.
 */
export class FileSecretStore implements SecretStore {
  readonly #file: string;
  readonly #codec: SecretCodec;
  readonly #warn: (message: string) => void;
  #warned = false;
  /**
   * The file as last read, by its identity, size and change time, with the values decoded so far: every
   * model call reads a provider's key, and reading, parsing and (in the desktop app) unsealing the file each
   * time was a cost per turn. A file written since, by this store or any other program, is read anew.
   */
  #cache: { stamp: string; values: Record<string, string>; decoded: Map<string, string> } | null = null;

  constructor(file: string, options: { codec?: SecretCodec; warn?: (message: string) => void } = {}) {
    this.#file = file;
    this.#codec = options.codec ?? plain;
    this.#warn = options.warn ?? ((m) => console.warn(m));
  }

  get(name: string): string | null {
    const values = this.#read();
    const stored = values[name];
    if (stored === undefined) return null;
    const decoded = this.#cache?.values === values ? this.#cache.decoded : null;
    const known = decoded?.get(name);
    if (known !== undefined) return known;
    const value = this.#codec.decode(stored);
    decoded?.set(name, value);
    return value;
  }

  set(name: string, value: string | null): void {
    const all = { ...this.#read() };
    if (value === null || value === '') delete all[name];
    else all[name] = this.#codec.encode(value);
    mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
    const tmp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
    renameSync(tmp, this.#file);
    chmodSync(this.#file, 0o600);
    if (!this.#codec.encrypted && !this.#warned && value) {
      this.#warned = true;
      this.#warn(
        `amber: API keys are stored unencrypted in ${this.#file} (readable only by you). ${this.#codec.unencryptedReason ?? 'The desktop app encrypts them with the OS keychain.'}`,
      );
    }
  }

  revision(): string | null {
    const stat = this.#stat();
    if (!stat) return 'none';
    return Date.now() - Number(stat.mtimeMs) < RACY_MS ? null : stampOf(stat);
  }

  /** The stored values (never to be changed: they may be the cached ones). */
  #read(): Readonly<Record<string, string>> {
    const stat = this.#stat();
    if (!stat) {
      this.#cache = null;
      return {};
    }
    const stamp = stampOf(stat);
    if (this.#cache?.stamp === stamp) return this.#cache.values;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.#file, 'utf8'));
    } catch (e) {
      throw new AmberError(
        'internal',
        `The key file ${this.#file} is not valid JSON (${e instanceof Error ? e.message : String(e)}); fix or delete it, then set the keys again.`,
      );
    }
    const parsed = SecretsFile.safeParse(raw);
    if (!parsed.success) throw new AmberError('internal', `The key file ${this.#file} is damaged; delete it and set the keys again.`);
    this.#cache = Date.now() - Number(stat.mtimeMs) < RACY_MS ? null : { stamp, values: parsed.data, decoded: new Map() };
    return parsed.data;
  }

  #stat(): BigIntStats | undefined {
    try {
      return statSync(this.#file, { bigint: true, throwIfNoEntry: false });
    } catch {
      return undefined; // a path that cannot be a file (a folder on the way is a file): no keys, as before
    }
  }
}
