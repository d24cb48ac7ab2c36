// A wallet per saved connection: two OpenRouter connections (each on its own loopback balance server) and a
// DeepSeek one, saved through the API, give the real wallet process three wallets named by the connections,
// each read with its own key at its own server; a wallet set up in the wallet's own settings stays as it was.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { type AccountServer, DEEPSEEK_PATH, OPENROUTER_PATH, startAccountServer } from './account-server.ts';

interface Listing {
  wallets: { id: string; provider: string; account?: string; balance: number | null; currency: string }[];
}

let work: AccountServer;
let home: AccountServer;
let t: AppUnderTest;

beforeEach(async () => {
  [work, home] = await Promise.all([startAccountServer(), startAccountServer()]);
  home.answer.openrouter = { kind: 'ok', body: { data: { total_credits: 50, total_usage: 8 } } };
  home.answer.deepseek = { kind: 'ok', body: { is_available: true, balance_infos: [{ currency: 'USD', total_balance: '3.50' }] } };
  t = openApp({ prefix: 'amber-wallet-accounts-', app: (dir) => ({ home: dir }) });
});

afterEach(async () => {
  await t.close();
  await Promise.all([work.close(), home.close()]);
});

const save = (name: string, providerId: string, baseUrl: string, apiKey: string) =>
  t.call('providers.save', { providerId, flavor: providerId, name, baseUrl, apiKey, model: 'm' });

test('two OpenRouter connections and a DeepSeek one: a wallet each, named by the connection, each asked with its own key', async () => {
  expect((await t.app.plugins.setState('wallet', true)).state).toBe('active');
  await save('Work', 'openrouter', work.openrouterBaseUrl, 'sk-or-work');
  await save('Home', 'openrouter', home.openrouterBaseUrl, 'sk-or-home');
  // DeepSeek's models are under /v1; its balance is not.
  await save('DeepSeek', 'deepseek', `${home.deepseekBaseUrl}/v1`, 'sk-ds-home');

  const listed = await t.call<Listing>('wallets.list');
  expect(listed.wallets.map((w) => [w.id, w.provider, w.account])).toEqual([
    ['work', 'work', 'Work'],
    ['home', 'home', 'Home'],
    ['deepseek', 'deepseek', 'DeepSeek'],
  ]);
  expect(await t.call('wallets.refresh', { id: 'work' })).toMatchObject({ account: 'Work', balance: 14.75, currency: 'USD' });
  expect(await t.call('wallets.refresh', { id: 'home' })).toMatchObject({ account: 'Home', balance: 42, currency: 'USD' });
  expect(await t.call('wallets.refresh', { id: 'deepseek' })).toMatchObject({ account: 'DeepSeek', balance: 3.5, currency: 'USD' });
  expect(work.seen).toEqual([{ path: OPENROUTER_PATH, authorization: 'Bearer sk-or-work' }]);
  expect(home.seen).toEqual([
    { path: OPENROUTER_PATH, authorization: 'Bearer sk-or-home' },
    { path: DEEPSEEK_PATH, authorization: 'Bearer sk-ds-home' },
  ]);

  // The panel and the status bar name each connection.
  const segment = await until(() => {
    const text = t.app.plugins.registries.statusSegments.get('wallet')?.value.text;
    return text?.includes('DeepSeek $3.50') && text;
  });
  expect(segment).toBe('Work $14.75 · Home $42.00 · DeepSeek $3.50');

  // Removing a connection removes its wallet; the other keeps its own.
  await t.call('providers.remove', { id: 'home' });
  expect((await t.call<Listing>('wallets.list')).wallets.map((w) => w.id)).toEqual(['work', 'deepseek']);
});

test('a connection saved without a key is declined with what to do; a wallet key of the wallet’s own settings keeps its wallet', async () => {
  await t.call('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': 'sk-or-management', 'openrouter.baseUrl': work.openrouterBaseUrl } });
  // The preset's own connection (saved without a name) is the wallet the wallet's own key already serves.
  await t.call('providers.save', { providerId: 'openrouter', flavor: 'openrouter', baseUrl: home.openrouterBaseUrl, apiKey: 'sk-or-inference', model: 'm' });
  await t.call('providers.save', { providerId: 'deepseek', flavor: 'deepseek', name: 'Spare', baseUrl: `${home.deepseekBaseUrl}/v1`, model: 'm' });
  expect((await t.app.plugins.setState('wallet', true)).state).toBe('active');

  expect((await t.call<Listing>('wallets.list')).wallets.map((w) => [w.id, w.account])).toEqual([['openrouter', 'OpenRouter']]);
  expect(await t.call('wallets.refresh', { id: 'openrouter' })).toMatchObject({ balance: 14.75 });
  expect(work.seen).toEqual([{ path: OPENROUTER_PATH, authorization: 'Bearer sk-or-management' }]);
  expect(home.seen).toEqual([]);
  expect(t.app.plugins.get('wallet').contributions).toContainEqual({
    kind: 'wallet',
    key: 'spare',
    status: 'declined',
    reason: 'No API key is saved for the connection "Spare" (Settings → Models).',
  });
});

async function until<T>(read: () => T | false | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
