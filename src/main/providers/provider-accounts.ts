import { type ModelInfo, presetById, ProviderAccount, type ProviderPreset } from '../../shared/providers/index.ts';
import type { ModelRef } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import type { SettingsService } from '../settings/index.ts';
import type { SecretStore } from './secret-store.ts';

export { ProviderAccount };

const keyName = (accountId: string) => `provider.${accountId}.apiKey`;

/** Which bundled plugin serves which dialect. */
export const DIALECT_PLUGINS: Readonly<Record<ProviderAccount['dialect'], string>> = {
  'openai-compatible': 'openai_compatible',
  anthropic: 'anthropic',
};

/** The bundled plugin that reads balances, and the presets whose servers have a balance endpoint it knows. */
export const WALLET_PLUGIN = 'wallet';
export const BALANCE_PRESETS: ReadonlySet<string> = new Set(['openrouter', 'deepseek']);

export interface SaveAccountInput {
  presetId?: string;
  /**
   * The saved account to change. Absent: a new account when `name` is given, else the preset's own account
   * (the one whose id is the preset's id, as every account was before several were allowed).
   */
  accountId?: string;
  /** The account's name as the user gives it (the model picker's group); unique among accounts, any case. */
  name?: string;
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Every model the server listed at the connection test: all of them are offered, the chosen one first. */
  listed?: string[];
}

export interface SavedAccount {
  account: ProviderAccount;
  /**
   * The stored key was removed because the base URL now names another origin (scheme, host or port) and
   * no new key came with it: a key is never sent to a server it was not given for.
   */
  keyCleared: boolean;
}

/** A name the user can type after `/model` (before the slash) and tell apart in the picker. */
const validName = (name: string): boolean => name.length >= 1 && name.length <= 60 && !name.includes('/');

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** Provider accounts (settings), their keys (secret store) and the default model for new sessions. */
export class ProviderAccounts {
  readonly #settings: SettingsService;
  readonly #secrets: SecretStore;

  constructor(settings: SettingsService, secrets: SecretStore) {
    this.#settings = settings;
    this.#secrets = secrets;
  }

  list(): ProviderAccount[] {
    return this.#settings.get('providers.accounts');
  }

  isConfigured(): boolean {
    return this.list().length > 0;
  }

  /**
   * Adds or updates the account of a preset and makes its model the default for new sessions. Moving an
   * account to another origin without a new key clears its stored key (see SavedAccount).
   */
  save(input: SaveAccountInput): SavedAccount {
    const accounts = this.list();
    const named = input.accountId !== undefined ? accounts.find((a) => a.id === input.accountId) : undefined;
    if (input.accountId !== undefined && !named)
      throw new AmberError('not_found', `There is no saved connection "${input.accountId}"; it may have been removed.`);
    const preset: ProviderPreset = presetById(input.presetId ?? named?.presetId ?? this.#guessPreset(input.baseUrl));
    const baseUrl = input.baseUrl.trim().replace(/\/+$/, '');
    if (!/^https?:\/\//.test(baseUrl)) throw new AmberError('invalid_input', 'The base URL must start with http:// or https://.');
    const model = input.model.trim();
    if (!model) throw new AmberError('invalid_input', 'Choose a model: type its id or pick one after a connection test.');
    const name = input.name?.trim().replace(/\s+/g, ' ');
    if (name !== undefined && !validName(name))
      throw new AmberError('invalid_input', 'Give the connection a name of 1 to 60 characters, without a slash (/model names it: /model name/model).');
    // A name alone asks for a new account; no name and no id: the preset's own account, as before.
    const existing = named ?? (name === undefined ? accounts.find((a) => a.id === preset.id) : undefined);
    const id = existing?.id ?? this.#newId(accounts, name === undefined ? preset.id : name);
    const finalName = name ?? existing?.name ?? this.#freeName(accounts, preset.name);
    const clash = accounts.find((a) => a.id !== id && a.name.toLowerCase() === finalName.toLowerCase());
    if (clash) throw new AmberError('conflict', `There is already a connection named "${clash.name}"; choose another name.`);
    const account: ProviderAccount = {
      id,
      presetId: preset.id,
      dialect: preset.dialect,
      name: finalName,
      baseUrl,
      models: [...new Set([model, ...(input.listed ?? []).map((m) => m.trim()).filter(Boolean), ...(existing?.models ?? [])])],
      contextWindow: preset.contextWindow,
    };
    const next = [...accounts.filter((a) => a.id !== account.id), account];
    this.#settings.set('providers.accounts', next);
    let keyCleared = false;
    if (input.apiKey !== undefined) this.#secrets.set(keyName(account.id), input.apiKey.trim() || null);
    else if (existing && originOf(existing.baseUrl) !== originOf(baseUrl) && this.#secrets.get(keyName(account.id)) !== null) {
      this.#secrets.set(keyName(account.id), null);
      keyCleared = true;
    }
    this.#settings.set('providers.defaultModel', { provider: account.id, modelId: model });
    return { account, keyCleared };
  }

  /** Removes an account and its key; when new conversations used its model, they use the next account's (or none). */
  remove(accountId: string): void {
    const rest = this.list().filter((a) => a.id !== accountId);
    this.#settings.set('providers.accounts', rest);
    this.#secrets.set(keyName(accountId), null);
    if (this.defaultModel()?.provider === accountId) {
      const next = rest[0];
      this.#settings.set('providers.defaultModel', next ? { provider: next.id, modelId: next.models[0]! } : null);
    }
  }

  /** The key stored for an account, or null: for a test the user asks for, never for the window. */
  apiKey(accountId: string): string | null {
    return this.#secrets.get(keyName(accountId));
  }

  /** Where to ask an account's server for its models (a refresh), with its stored key; null when it is gone. */
  connectionOf(accountId: string): { baseUrl: string; dialect: ProviderAccount['dialect']; flavor: string; apiKey?: string } | null {
    const account = this.list().find((a) => a.id === accountId);
    if (!account) return null;
    const apiKey = this.#secrets.get(keyName(account.id));
    return { baseUrl: account.baseUrl, dialect: account.dialect, flavor: account.presetId, ...(apiKey ? { apiKey } : {}) };
  }

  /**
   * Replaces the models an account offers with what its server lists now (a refresh), keeping the default
   * model of new conversations when it is this account's: false when the account is gone or nothing changed.
   */
  setModels(accountId: string, listed: readonly string[]): boolean {
    const accounts = this.list();
    const account = accounts.find((a) => a.id === accountId);
    const ids = listed.map((m) => m.trim()).filter(Boolean);
    if (!account || ids.length === 0) return false;
    const fallback = this.defaultModel();
    const models = [...new Set([...(fallback?.provider === accountId ? [fallback.modelId] : []), ...ids])];
    if (models.length === account.models.length && models.every((m, i) => m === account.models[i])) return false;
    this.#settings.set(
      'providers.accounts',
      accounts.map((a) => (a.id === accountId ? { ...a, models } : a)),
    );
    return true;
  }

  defaultModel(): ModelRef | null {
    return this.#settings.get('providers.defaultModel');
  }

  /**
   * What a plugin reads of the accounts in its live config: a provider plugin its dialect's accounts with
   * their keys (`accounts`); the wallet plugin the accounts whose server has a balance endpoint, with their
   * keys (`providerAccounts`, a wallet each); any other plugin nothing.
   */
  pluginConfig(pluginId: string): Record<string, unknown> {
    if (pluginId === WALLET_PLUGIN) return { providerAccounts: this.walletAccounts() };
    if (!Object.values(DIALECT_PLUGINS).includes(pluginId)) return {};
    const accounts = this.list()
      .filter((a) => DIALECT_PLUGINS[a.dialect] === pluginId)
      .map((a) => ({
        id: a.id,
        flavor: a.dialect === 'anthropic' ? 'anthropic' : a.presetId,
        label: a.name,
        baseUrl: a.baseUrl,
        apiKey: this.#secrets.get(keyName(a.id)) ?? undefined,
        models: a.models.map(
          (id): ModelInfo => ({ id, contextWindow: a.contextWindow, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }),
        ),
      }));
    return { accounts };
  }

  /** The accounts the wallet plugin reads a balance of, each with its own key (none when none is stored). */
  walletAccounts(): { id: string; kind: string; name: string; baseUrl: string; apiKey?: string }[] {
    return this.list()
      .filter((a) => BALANCE_PRESETS.has(a.presetId))
      .map((a) => {
        const apiKey = this.#secrets.get(keyName(a.id));
        return { id: a.id, kind: a.presetId, name: a.name, baseUrl: a.baseUrl, ...(apiKey ? { apiKey } : {}) };
      });
  }

  /** An id for a new account: the preset's or the name's slug, with a number when taken. */
  #newId(accounts: readonly ProviderAccount[], base: string): string {
    const stem =
      base
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 36) || 'account';
    let id = stem;
    for (let n = 2; accounts.some((a) => a.id === id); n++) id = `${stem}-${n}`;
    return id;
  }

  /** The preset's name, with a number when another account has it. */
  #freeName(accounts: readonly ProviderAccount[], base: string): string {
    let name = base;
    for (let n = 2; accounts.some((a) => a.name.toLowerCase() === name.toLowerCase()); n++) name = `${base} ${n}`;
    return name;
  }

  #guessPreset(baseUrl: string): string {
    if (baseUrl.includes('anthropic.com')) return 'anthropic';
    if (baseUrl.includes(':11434')) return 'ollama';
    if (baseUrl.includes(':1234')) return 'lmstudio';
    if (baseUrl.includes('openrouter.ai')) return 'openrouter';
    if (baseUrl.includes('deepseek.com')) return 'deepseek';
    if (baseUrl.includes('groq.com')) return 'groq';
    if (baseUrl.includes('api.openai.com')) return 'openai';
    return 'custom';
  }
}
