import { describe, expect, it } from 'vitest';
import { expandPath, getPath, setPath, takePath } from './config-path.ts';

describe('config paths', () => {
  it('reads, writes and takes dotted paths, making the objects on the way', () => {
    const config: Record<string, unknown> = { openrouter: { apiKey: 'k' }, flat: 1 };
    expect(getPath(config, 'openrouter.apiKey')).toBe('k');
    expect(getPath(config, 'openrouter.missing')).toBeUndefined();
    setPath(config, 'deepseek.apiKey', 'd');
    setPath(config, 'flat.inner', 2);
    expect(config).toEqual({ openrouter: { apiKey: 'k' }, flat: { inner: 2 }, deepseek: { apiKey: 'd' } });
    expect(takePath(config, 'openrouter.apiKey')).toBe('k');
    expect(config['openrouter']).toEqual({});
  });

  it('expands * over the keys present, leaving out dotted ones', () => {
    const config = { servers: { gh: { env: { A: '1', B: '2' } }, 'a.b': { env: { C: '3' } } } };
    expect(expandPath(config, 'servers.*.env.*'.split('.'))).toEqual(['servers.gh.env.A', 'servers.gh.env.B']);
  });

  it('never walks into a prototype, whatever the path or the config says', () => {
    const config = JSON.parse('{"servers": {"__proto__": {"env": {"polluted": "yes"}}}}') as Record<string, unknown>;
    expect(expandPath(config, 'servers.*.env.*'.split('.'))).toEqual([]);
    expect(() => setPath({}, '__proto__.polluted', 'yes')).toThrow(/not a setting's path/);
    expect(() => setPath({}, 'a.constructor.prototype.polluted', 'yes')).toThrow(/not a setting's path/);
    expect(getPath({}, 'constructor.name')).toBeUndefined();
    expect(takePath({}, '__proto__.toString')).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.toString).toBeTypeOf('function');
  });
});
