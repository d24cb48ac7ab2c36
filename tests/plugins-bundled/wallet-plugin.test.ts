import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListedPanel } from '../../src/main/plugins/index.ts';
import { type AccountServer, DEEPSEEK_PATH, deepseekError, OPENROUTER_PATH, openrouterError, startAccountServer } from './account-server.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';

const OPENROUTER_KEY = 'sk-or-v1-test-management-key';
const DEEPSEEK_KEY = 'sk-deepseek-test-key';

let dir: ReturnType<typeof tempDir>;
let server: AccountServer;
let runtime: BundledRuntime | null = null;

beforeEach(async () => {
  dir = tempDir('amber-wallet-');
  server = await startAccountServer();
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  await server.close();
  dir.remove();
});

function accounts(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openrouter: { apiKey: OPENROUTER_KEY, baseUrl: server.openrouterBaseUrl },
    deepseek: { apiKey: DEEPSEEK_KEY, baseUrl: server.deepseekBaseUrl },
    ...extra,
  };
}

async function start(config: Record<string, unknown>, tickIntervalMs = 0): Promise<BundledRuntime> {
  runtime = await startBundled(['wallet'], { dataDir: dir.path, config: new Map([['wallet', config]]), tickIntervalMs });
  return runtime;
}

const panel = (r: BundledRuntime) => r.service.registries.panels.list().find((p) => p.id === 'wallet')!;
const section = (p: ListedPanel, title: string) => p.sections.find((s) => s.title === title)!;
const value = (p: ListedPanel, title: string, key: string) => {
  const found = section(p, title).rows.find((row) => row.type === 'keyValue' && row.key === key);
  return found?.type === 'keyValue' ? found.value : undefined;
};
const texts = (p: ListedPanel, title: string) => section(p, title).rows.flatMap((row) => (row.type === 'text' ? [row.text] : []));
const segment = (r: BundledRuntime) => r.service.registries.statusSegments.get('wallet')?.value;

describe('the wallet plugin in its own process', () => {
  it('reads OpenRouter credits and the DeepSeek balance on demand, with the keys as bearer tokens', async () => {
    const r = await start(accounts());
    expect(r.service.registries.wallets.list().map((w) => w.id)).toEqual(['openrouter', 'deepseek']);

    expect(await r.service.registries.wallets.refresh('openrouter')).toMatchObject({
      id: 'openrouter',
      provider: 'openrouter',
      balance: 14.75,
      currency: 'USD',
    });
    expect(await r.service.registries.wallets.refresh('deepseek')).toMatchObject({ id: 'deepseek', balance: 110, currency: 'CNY' });
    expect(server.seen).toEqual([
      { path: OPENROUTER_PATH, authorization: `Bearer ${OPENROUTER_KEY}` },
      { path: DEEPSEEK_PATH, authorization: `Bearer ${DEEPSEEK_KEY}` },
    ]);

    const p = await r.until(() => {
      const v = panel(r);
      return value(v, 'DeepSeek', 'Balance') === '¥110.00' && v;
    }, 'both balances in the panel');
    expect(value(p, 'OpenRouter', 'Balance')).toBe('$14.75');
    expect(value(p, 'OpenRouter', 'Currency')).toBe('USD');
    expect(value(p, 'OpenRouter', 'Last refresh')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(value(p, 'DeepSeek', 'Topped up')).toBe('100.00');
    expect(p.actions).toEqual([{ id: 'refresh', label: 'Refresh balances' }]);
    expect(segment(r)?.text).toBe('OpenRouter $14.75 · DeepSeek ¥110.00');
  });

  it('refreshes on tick without being asked', async () => {
    const r = await start(accounts(), 50);
    await r.until(() => segment(r)?.text === 'OpenRouter $14.75 · DeepSeek ¥110.00', 'balances read on tick');
    // Main's wallet registry learns the balance read on tick too, without a refresh from main.
    await r.until(() => r.service.registries.wallets.list().find((w) => w.id === 'openrouter')?.balance === 14.75, 'the balance in main');
    expect(r.service.registries.wallets.list().find((w) => w.id === 'openrouter')).toMatchObject({
      currency: 'USD',
      available: true,
      refreshedAt: expect.any(Number),
    });
  });

  it('reads again on tick once a balance is older than refreshMinutes', async () => {
    const r = await start(accounts({ refreshMinutes: 0.001 }), 30);
    server.answer.openrouter = { kind: 'ok', body: { data: { total_credits: 20, total_usage: 5.25 } } };
    await server.requests(OPENROUTER_PATH, 1);
    server.answer.openrouter = { kind: 'ok', body: { data: { total_credits: 30, total_usage: 5.25 } } };
    await r.until(() => segment(r)?.text.startsWith('OpenRouter $24.75'), 'the newer balance read on a later tick');
  });

  it('the panel’s refresh action reads every account', async () => {
    const r = await start(accounts());
    await r.service.registries.panels.action('wallet', 'refresh');
    expect(server.seen.map((s) => s.path).sort()).toEqual([OPENROUTER_PATH, DEEPSEEK_PATH]);
  });

  it('an account without a key is declined and listed with what to set', async () => {
    const r = await start({ openrouter: { apiKey: OPENROUTER_KEY, baseUrl: server.openrouterBaseUrl } });
    expect(r.service.get('wallet').contributions).toContainEqual({
      kind: 'wallet',
      key: 'deepseek',
      status: 'declined',
      reason: 'No API key is set for DeepSeek (deepseek.apiKey).',
    });
    expect(r.service.registries.wallets.list().map((w) => w.id)).toEqual(['openrouter']);
    expect(texts(panel(r), 'DeepSeek')[0]).toContain('deepseek.apiKey');
  });

  it('warns under the threshold set in config', async () => {
    const r = await start(accounts({ warnBelow: 20, deepseek: { apiKey: DEEPSEEK_KEY, baseUrl: server.deepseekBaseUrl, warnBelow: 5 } }));
    await r.service.registries.panels.action('wallet', 'refresh');
    const p = await r.until(() => texts(panel(r), 'OpenRouter').length > 0 && panel(r), 'the low-balance warning');
    expect(texts(p, 'OpenRouter')).toEqual(['⚠ The balance is below $20.00. Add money at https://openrouter.ai/settings/credits.']);
    expect(texts(p, 'DeepSeek')).toEqual([]);
    expect(segment(r)?.text.startsWith('⚠ ')).toBe(true);
  });

  describe('errors become a state the user can act on, and the plugin stays active', () => {
    const cases: { name: string; set(s: AccountServer): void; wallet: 'openrouter' | 'deepseek'; expected: RegExp[]; timeoutMs?: number }[] = [
      {
        name: 'OpenRouter 401 (bad key)',
        set: (s) => (s.answer.openrouter = openrouterError(401, 'No auth credentials found')),
        wallet: 'openrouter',
        expected: [
          /refused the API key \(HTTP 401: "No auth credentials found"\)/,
          /Check the OpenRouter API key in Settings → Plugins → Wallet/,
          /management key/,
        ],
      },
      {
        name: 'DeepSeek 401 (bad key)',
        set: (s) => (s.answer.deepseek = deepseekError(401, `Authentication Fails, Your api key: ${DEEPSEEK_KEY} is invalid`, 'authentication_error')),
        wallet: 'deepseek',
        expected: [/DeepSeek refused the API key \(HTTP 401/, /Check the DeepSeek API key in Settings → Plugins → Wallet/, /\*\*\*\*/],
      },
      {
        name: '429 (rate limited)',
        set: (s) => (s.answer.openrouter = openrouterError(429, 'Rate limit exceeded', { 'retry-after': '12' })),
        wallet: 'openrouter',
        expected: [/HTTP 429/, /next refresh; it asked to wait 12 s/],
      },
      {
        name: 'DeepSeek 500',
        set: (s) => (s.answer.deepseek = deepseekError(500, 'Server error', 'server_error')),
        wallet: 'deepseek',
        expected: [/DeepSeek had a server error \(HTTP 500/, /Try Refresh again/],
      },
      {
        name: 'malformed JSON',
        set: (s) => (s.answer.openrouter = { kind: 'malformed' }),
        wallet: 'openrouter',
        expected: [/not JSON/, /openrouter\.baseUrl/],
      },
      {
        name: 'a body in the wrong format',
        set: (s) => (s.answer.deepseek = { kind: 'ok', body: { data: { total_credits: 1, total_usage: 0 } } }),
        wallet: 'deepseek',
        expected: [/not an account balance \(is_available/, /deepseek\.baseUrl/],
      },
      {
        name: 'timeout',
        set: (s) => (s.answer.openrouter = { kind: 'hang' }),
        wallet: 'openrouter',
        expected: [/did not answer within 300 ms/, /raise the request timeout in Settings → Plugins → Wallet/],
        timeoutMs: 300,
      },
    ];

    for (const c of cases) {
      it(c.name, async () => {
        const r = await start(accounts());
        const title = c.wallet === 'openrouter' ? 'OpenRouter' : 'DeepSeek';
        const good = await r.service.registries.wallets.refresh(c.wallet);
        expect(texts(panel(r), title)).toEqual([]);
        c.set(server);
        // Config is read live: a shorter timeout applies from the next request on.
        if (c.timeoutMs) r.config.set('wallet', accounts({ timeoutMs: c.timeoutMs }));
        // The refresh answers (no crash, no rejection) and keeps the last good balance.
        expect(await r.service.registries.wallets.refresh(c.wallet)).toMatchObject({ balance: good.balance, currency: good.currency });
        const p = await r.until(() => texts(panel(r), title).length > 0 && panel(r), 'the error in the panel');
        const [warning] = texts(p, title);
        for (const e of c.expected) expect(warning).toMatch(e);
        expect(warning).not.toContain(DEEPSEEK_KEY);
        expect(warning).not.toContain(OPENROUTER_KEY);
        expect(value(p, title, 'Last refresh')).toMatch(/\(failed; balance as of /);
        expect(segment(r)?.text.startsWith('⚠ ')).toBe(true);
        expect(r.service.get('wallet').state).toBe('active');
      });
    }

    it('a key removed from the config while running', async () => {
      const r = await start(accounts());
      await r.service.registries.wallets.refresh('openrouter');
      r.config.set('wallet', { ...accounts(), openrouter: { baseUrl: server.openrouterBaseUrl } });
      await r.service.registries.wallets.refresh('openrouter');
      const p = await r.until(() => texts(panel(r), 'OpenRouter').length > 0 && panel(r), 'the missing key in the panel');
      expect(texts(p, 'OpenRouter')).toEqual(['⚠ No API key is set for OpenRouter: add one in Settings → Plugins → Wallet → Settings.']);
      expect(server.seen.filter((s) => s.path === OPENROUTER_PATH)).toHaveLength(1);
    });

    it('an unreachable server', async () => {
      const r = await start(accounts({ deepseek: { apiKey: DEEPSEEK_KEY, baseUrl: 'http://127.0.0.1:9' } }));
      // Never read: the balance is unknown, not zero — to main and in the panel.
      expect(r.service.registries.wallets.list().find((w) => w.id === 'deepseek')?.balance).toBeNull();
      expect((await r.service.registries.wallets.refresh('deepseek')).balance).toBeNull();
      const p = await r.until(() => texts(panel(r), 'DeepSeek').length > 0 && panel(r), 'the network error in the panel');
      expect(texts(p, 'DeepSeek')[0]).toMatch(/Could not reach DeepSeek at http:\/\/127\.0\.0\.1:9\/user\/balance/);
      expect(value(p, 'DeepSeek', 'Balance')).toBe('— (unknown: the read failed)');
      expect(r.service.registries.statusSegments.get('wallet')?.value.text).toContain('DeepSeek balance unknown');
    });
  });
});
