import { describe, expect, it } from 'vitest';
import { PluginConfigSchema } from '../../../shared/plugins/index.ts';
import { PluginConfigService, type PluginConfigStorage } from './plugin-config-service.ts';

const schema = PluginConfigSchema.parse({
  type: 'object',
  properties: {
    account: { type: 'object', title: 'Account', properties: { apiKey: { type: 'string', secret: true }, region: { type: 'string', enum: ['eu', 'us'] } } },
    refreshMinutes: { type: 'number', exclusiveMinimum: 0, default: 5 },
    retries: { type: 'integer', minimum: 0, maximum: 5 },
    verbose: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
  },
});

/** Settings in memory, secrets apart, as PluginSecrets keeps them. */
function memoryStorage(secretKeys: string[]) {
  const configs = new Map<string, Record<string, unknown>>();
  const secrets = new Map<string, string>();
  const storage: PluginConfigStorage = {
    stored: (id) => structuredClone(configs.get(id) ?? {}),
    hasSecret: (id, key) => secrets.has(`${id}.${key}`),
    write: (id, config) => {
      const rest = structuredClone(config);
      for (const key of secretKeys) {
        const [group, name] = key.split('.') as [string, string];
        const holder = rest[group] as Record<string, unknown> | undefined;
        if (!holder || !(name in holder)) continue;
        const value = holder[name];
        delete holder[name];
        if (typeof value === 'string') secrets.set(`${id}.${key}`, value);
        else secrets.delete(`${id}.${key}`);
      }
      configs.set(id, rest);
    },
  };
  return { storage, configs, secrets };
}

function service(applied: string[] = []) {
  const memory = memoryStorage(['account.apiKey']);
  const config = new PluginConfigService({
    schemaOf: (id) =>
      id === 'demo'
        ? schema
        : id === 'plain'
          ? null
          : (() => {
              throw new Error(`There is no plugin '${id}'.`);
            })(),
    storage: memory.storage,
    applied: async (id) => void applied.push(id),
  });
  return { config, ...memory };
}

describe('PluginConfigService', () => {
  it('stores settings in the config, the secret apart, and shows the secret only as set', async () => {
    const applied: string[] = [];
    const { config, configs, secrets } = service(applied);
    const state = await config.set('demo', { 'account.apiKey': '  sk-demo-1  ', 'account.region': 'eu', refreshMinutes: 2, tags: ['a', 'b'] });
    expect(configs.get('demo')).toEqual({ account: { region: 'eu' }, refreshMinutes: 2, tags: ['a', 'b'] });
    expect(secrets.get('demo.account.apiKey')).toBe('sk-demo-1');
    expect(state.values).toEqual({ 'account.region': 'eu', refreshMinutes: 2, tags: ['a', 'b'] });
    expect(state.secrets).toEqual({ 'account.apiKey': true });
    expect(JSON.stringify(state)).not.toContain('sk-demo-1');
    expect(applied).toEqual(['demo']);
  });

  it('resets a setting with null, clears a secret with null, and leaves the others', async () => {
    const { config, configs, secrets } = service();
    await config.set('demo', { 'account.apiKey': 'sk-demo-1', retries: 3, verbose: true });
    const state = await config.set('demo', { 'account.apiKey': null, retries: null });
    expect(secrets.has('demo.account.apiKey')).toBe(false);
    expect(configs.get('demo')).toEqual({ account: {}, verbose: true });
    expect(state.secrets).toEqual({ 'account.apiKey': false });
  });

  it('refuses an undeclared key, a wrong type, a value out of range and an enum outside its options, storing nothing', async () => {
    const applied: string[] = [];
    const { config, configs } = service(applied);
    await expect(config.set('demo', { verbose: true, timeoutMs: 5 })).rejects.toThrow("'timeoutMs' is not a setting of the plugin 'demo'");
    await expect(config.set('demo', { refreshMinutes: 'soon' })).rejects.toThrow("The setting 'refreshMinutes' must be a number.");
    await expect(config.set('demo', { retries: 2.5 })).rejects.toThrow("The setting 'retries' must be a whole number.");
    await expect(config.set('demo', { refreshMinutes: 0 })).rejects.toThrow("The setting 'refreshMinutes' must be more than 0.");
    await expect(config.set('demo', { 'account.region': 'mars' })).rejects.toThrow("The setting 'account.region' must be one of eu, us.");
    await expect(config.set('demo', { tags: ['a', 'b', 'c', 'd'] })).rejects.toThrow("The setting 'tags' must have at most 3 items.");
    await expect(config.set('demo', { account: 'x' })).rejects.toThrow("'account' is not a setting");
    await expect(config.set('demo', JSON.parse('{"__proto__": {"verbose": true}}') as Record<string, string>)).rejects.toThrow('is not a setting');
    await expect(config.set('demo', { 'account.apiKey': '   ' })).rejects.toThrow('clear it instead');
    expect(configs.size).toBe(0);
    expect(applied).toEqual([]);
  });

  it('says so for a plugin without settings', async () => {
    const { config } = service();
    expect(() => config.get('plain')).toThrow("The plugin 'plain' has no settings.");
    await expect(config.set('plain', { x: 1 })).rejects.toThrow('has no settings');
  });

  it('shows a stored value that no longer fits its setting as unset', () => {
    const { config, storage } = service();
    storage.write('demo', { retries: 99, verbose: 'yes', refreshMinutes: 3 });
    expect(config.get('demo').values).toEqual({ refreshMinutes: 3 });
  });
});
