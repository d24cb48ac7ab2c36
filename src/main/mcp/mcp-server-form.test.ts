import { expect, test } from 'vitest';
import { configToForm, formToConfig } from './mcp-server-form.ts';

const folders =
  (...known: string[]) =>
  (p: string) =>
    known.includes(p);

test('a form becomes the mcpServers config with the secret marks, the timeout in ms and the folder only when named', () => {
  const config = formToConfig(
    {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'srv'],
      cwd: '/srv',
      env: [
        { name: 'TOKEN', value: 't', secret: true, keep: false },
        { name: 'MODE', value: 'm', secret: false, keep: false },
      ],
      timeoutSeconds: 90,
    },
    undefined,
    folders('/srv'),
  );
  expect(config).toEqual({ command: 'npx', args: ['-y', 'srv'], env: { TOKEN: 't', MODE: 'm' }, secretEnv: ['TOKEN'], cwd: '/srv', timeoutMs: 90_000 });
  expect(formToConfig({ transport: 'stdio', command: 'x', args: [], cwd: '', env: [] }, undefined)).toEqual({ command: 'x', args: [], env: {}, secretEnv: [] });
});

test('an Authorization header is always secret, and a kept header takes the stored value', () => {
  const before = { url: 'https://h/mcp', headers: { Authorization: 'Bearer old', 'X-Team': 'a' }, secretHeaders: ['Authorization'] };
  const config = formToConfig(
    {
      transport: 'http',
      url: 'https://h/mcp',
      headers: [
        { name: 'Authorization', value: '', secret: false, keep: true },
        { name: 'X-Team', value: 'b', secret: false, keep: false },
      ],
    },
    before,
  );
  expect(config).toEqual({ url: 'https://h/mcp', headers: { Authorization: 'Bearer old', 'X-Team': 'b' }, secretHeaders: ['Authorization'] });
});

test('the form of a stored server leaves secret values out; an imported server, never marked, shows none of its values', () => {
  const saved = configToForm({ command: 'x', env: { TOKEN: 'secret-1', MODE: 'plain' }, secretEnv: ['TOKEN'], timeoutMs: 1500 });
  expect(saved).toEqual({
    transport: 'stdio',
    command: 'x',
    args: [],
    cwd: '',
    timeoutSeconds: 2,
    env: [
      { name: 'TOKEN', value: '', secret: true, keep: true },
      { name: 'MODE', value: 'plain', secret: false, keep: false },
    ],
  });
  const imported = configToForm({ command: 'x', env: { GH_TOKEN: 'secret-2' } });
  expect(JSON.stringify(imported)).not.toContain('secret-2');
  expect(JSON.stringify(configToForm({ url: 'http://h/mcp', headers: { authorization: 'Bearer s-3' }, secretHeaders: [] }))).not.toContain('s-3');
});

test('a kept value that was never stored, or a working folder that does not exist, is refused with a sentence', () => {
  expect(() =>
    formToConfig({ transport: 'stdio', command: 'x', args: [], cwd: '', env: [{ name: 'T', value: '', secret: true, keep: true }] }, { command: 'x', env: {} }),
  ).toThrow('There is no stored value of the environment variable T to keep; type its value again.');
  expect(() => formToConfig({ transport: 'stdio', command: 'x', args: [], cwd: '/nowhere', env: [] }, undefined, folders())).toThrow(
    'The working folder /nowhere does not exist; create it, or leave the field empty for the default workspace.',
  );
});

test('a server given another URL, command or arguments keeps none of its stored secrets, whatever the form asks to keep', () => {
  const web = { url: 'https://h/mcp', headers: { Authorization: 'Bearer old', 'X-Team': 'a' }, secretHeaders: ['Authorization'] };
  const keepAuth = { name: 'Authorization', value: '', secret: true, keep: true };
  expect(
    formToConfig({ transport: 'http', url: 'http://127.0.0.1:9/evil', headers: [keepAuth, { name: 'X-Team', value: 'a', secret: false, keep: false }] }, web),
  ).toEqual({
    url: 'http://127.0.0.1:9/evil',
    headers: { 'X-Team': 'a' },
    secretHeaders: [],
  });
  // A new value typed for it goes to the new URL.
  expect(formToConfig({ transport: 'http', url: 'http://127.0.0.1:9/new', headers: [{ ...keepAuth, value: 'Bearer new', keep: false }] }, web)).toMatchObject({
    headers: { Authorization: 'Bearer new' },
  });
  const gh = { command: 'gh-mcp', args: ['--a'], env: { GH_TOKEN: 'ghp-1' }, secretEnv: ['GH_TOKEN'] };
  const keepToken = { name: 'GH_TOKEN', value: '', secret: true, keep: true };
  expect(formToConfig({ transport: 'stdio', command: 'gh-mcp', args: ['--a'], cwd: '', env: [keepToken] }, gh)).toMatchObject({ env: { GH_TOKEN: 'ghp-1' } });
  expect(formToConfig({ transport: 'stdio', command: 'gh-mcp', args: ['--b'], cwd: '', env: [keepToken] }, gh)).toMatchObject({ env: {}, secretEnv: [] });
  expect(formToConfig({ transport: 'stdio', command: 'sh', args: ['--a'], cwd: '', env: [keepToken] }, gh)).toMatchObject({ env: {} });
});

test('an OAuth client id entered in the form is kept with the server and shown again; a hostile one is refused with a sentence', async () => {
  const { McpHttpForm } = await import('../../shared/api/index.ts');
  const config = formToConfig({ transport: 'http', url: 'https://h/mcp', headers: [], oauthClientId: 'amber-by-hand' }, undefined);
  expect(config).toEqual({ url: 'https://h/mcp', headers: {}, secretHeaders: [], oauthClientId: 'amber-by-hand' });
  expect(configToForm(config)).toEqual({ transport: 'http', url: 'https://h/mcp', headers: [], oauthClientId: 'amber-by-hand' });
  // Left empty: none kept.
  expect(formToConfig({ transport: 'http', url: 'https://h/mcp', headers: [] }, undefined)).not.toHaveProperty('oauthClientId');
  for (const bad of ['two words', 'line\nbreak', 'nul\0', 'x'.repeat(513)]) {
    const parsed = McpHttpForm.safeParse({ transport: 'http', url: 'https://h/mcp', oauthClientId: bad });
    expect(parsed.success, bad.slice(0, 20)).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^The OAuth client id /);
  }
});
