import { describe, expect, it } from 'vitest';
import { configFields, MAX_CONFIG_FIELDS, parseSettingText, PluginConfigSchema, secretBindings, secretKeys, settingProblem } from './plugin-config-schema.ts';

const firstIssue = (value: unknown): string => {
  const parsed = PluginConfigSchema.safeParse(value);
  if (parsed.success) throw new Error('the schema was accepted');
  return parsed.error.issues[0]!.message;
};

describe('plugin configuration schema', () => {
  it('flattens groups into dotted keys and finds the secret ones', () => {
    const schema = PluginConfigSchema.parse({
      type: 'object',
      properties: {
        account: { type: 'object', title: 'Account', properties: { apiKey: { type: 'string', secret: true }, region: { type: 'string' } } },
        verbose: { type: 'boolean' },
      },
    });
    expect(configFields(schema).map((f) => [f.key, f.group])).toEqual([
      ['account.apiKey', 'Account'],
      ['account.region', 'Account'],
      ['verbose', null],
    ]);
    expect(secretKeys(schema)).toEqual(['account.apiKey']);
  });

  it('refuses keywords outside the subset, objects nested twice and secrets that are not strings', () => {
    expect(firstIssue({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } })).toMatch(/unrecognized key/i);
    expect(() =>
      PluginConfigSchema.parse({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: {} } } } } }),
    ).toThrow();
    expect(() => PluginConfigSchema.parse({ type: 'object', properties: { n: { type: 'number', secret: true } } })).toThrow();
    expect(firstIssue({ type: 'object', properties: { 'a.b': { type: 'string' } } })).toMatch(/invalid key/i);
  });

  it('takes a unit on a number setting from the known few, and nowhere else', () => {
    const schema = PluginConfigSchema.parse({
      type: 'object',
      properties: { limit: { type: 'number', unit: 'usd' }, warnAt: { type: 'number', unit: 'fraction' } },
    });
    expect(configFields(schema).map((f) => (f.setting.type === 'number' ? f.setting.unit : null))).toEqual(['usd', 'fraction']);
    expect(() => PluginConfigSchema.parse({ type: 'object', properties: { n: { type: 'number', unit: 'furlongs' } } })).toThrow();
    expect(firstIssue({ type: 'object', properties: { s: { type: 'string', unit: 'usd' } } })).toMatch(/unrecognized key/i);
  });

  it('refuses a default the setting itself would refuse, and a default on a secret', () => {
    expect(firstIssue({ type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 0 } } })).toBe('the default must be at least 1');
    expect(firstIssue({ type: 'object', properties: { k: { type: 'string', secret: true, default: 'sk-1' } } })).toBe('a secret setting has no default');
  });

  it('binds a secret to the setting beside it that says where it goes, and refuses any other binding', () => {
    const account = { type: 'object', properties: { apiKey: { type: 'string', secret: true, boundTo: 'baseUrl' }, baseUrl: { type: 'string' } } };
    expect(
      secretBindings(
        PluginConfigSchema.parse({
          type: 'object',
          properties: { acct: account, token: { type: 'string', secret: true, boundTo: 'host' }, host: { type: 'string' } },
        }),
      ),
    ).toEqual([
      { secret: 'acct.apiKey', target: 'acct.baseUrl' },
      { secret: 'token', target: 'host' },
    ]);
    expect(firstIssue({ type: 'object', properties: { k: { type: 'string', boundTo: 'url' }, url: { type: 'string' } } })).toBe(
      'only a secret setting is bound to another',
    );
    expect(
      firstIssue({
        type: 'object',
        properties: { g: { type: 'object', properties: { k: { type: 'string', secret: true, boundTo: 'url' } } }, url: { type: 'string' } },
      }),
    ).toBe("boundTo names 'g.url', which is not a setting beside it");
    expect(firstIssue({ type: 'object', properties: { k: { type: 'string', secret: true, boundTo: 'j' }, j: { type: 'string', secret: true } } })).toBe(
      "boundTo names 'j', which is secret itself",
    );
  });

  it('caps the number of settings and the size of the schema', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_CONFIG_FIELDS + 1 }, (_, i) => [`s${i}`, { type: 'boolean' }]));
    expect(firstIssue({ type: 'object', properties: many })).toBe(`a configuration has at most ${MAX_CONFIG_FIELDS} settings`);
    const long = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, { type: 'string', description: 'x'.repeat(1990) }]));
    expect(firstIssue({ type: 'object', properties: long })).toBe('a configuration schema is at most 32 KB as JSON');
  });

  it('checks values against a setting and parses what the user typed', () => {
    expect(settingProblem({ type: 'integer', maximum: 10 }, 2.5)).toBe('must be a whole number');
    expect(settingProblem({ type: 'string', enum: ['CNY', 'USD'] }, 'EUR')).toBe('must be one of CNY, USD');
    expect(settingProblem({ type: 'array', items: { type: 'string', enum: ['a'] } }, ['a', 'b'])).toBe("must list only a ('b' is not one)");
    expect(settingProblem({ type: 'boolean' }, 'yes')).toBe('must be true or false');
    expect(parseSettingText({ type: 'number', minimum: 0 }, ' 2.5 ')).toEqual({ ok: true, value: 2.5 });
    expect(parseSettingText({ type: 'number' }, 'ten')).toEqual({ ok: false, problem: 'must be a number' });
    expect(parseSettingText({ type: 'boolean' }, 'off')).toEqual({ ok: true, value: false });
    expect(parseSettingText({ type: 'array', items: { type: 'string' } }, 'a, b,,c')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
  });
});
