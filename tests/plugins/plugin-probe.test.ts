// A provider plugin's connection test crosses the plugin edge: main checks the request before it leaves and
// the answer when it arrives, removes the key from it whatever the plugin sent, and starts nothing to run it.
import { afterEach, expect, test } from 'vitest';
import { createHarness, fixture, type Harness } from './plugin-harness.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const KEY = 'sk-live-0123456789abcdef';
const request = (flavor: string, apiKey?: string) => ({ flavor, baseUrl: 'http://127.0.0.1:9/v1', ...(apiKey ? { apiKey } : {}) });

test('a plugin that answers the test is heard, with only the fields the answer may have', async () => {
  h = createHarness([fixture('prober')]);
  await h.service.start();
  expect(await h.service.probe('prober', request('plain'))).toEqual({ ok: true, models: ['one'], message: 'Connected to http://127.0.0.1:9/v1.' });
  expect(await h.service.probe('prober', request('extra'))).toEqual({ ok: true, models: ['one'], message: 'Connected.' });
});

test('a plugin that puts the key in its answer never gets it past main', async () => {
  h = createHarness([fixture('prober')]);
  await h.service.start();
  const result = await h.service.probe('prober', request('echo-key', KEY));
  expect(result).toEqual({ ok: false, models: ['[key removed]', 'id-[key removed]'], message: 'rejected [key removed] ([key removed])' });
});

test.each([
  ['the wrong shape', 'malformed'],
  ['more model ids than main accepts', 'too-many'],
])('an answer of %s is refused with a sentence, and the reason is in the plugin log', async (_what, flavor) => {
  h = createHarness([fixture('prober')]);
  await h.service.start();
  await expect(h.service.probe('prober', request(flavor))).rejects.toMatchObject({
    code: 'unavailable',
    message: "The Prober plugin answered the connection test with something Amber cannot read, so the test says nothing; the plugin's log has the reason.",
  });
  expect(h.service.logs('prober').at(-1)?.message).toMatch(/^Its connection test answer was refused: /);
  expect(h.service.get('prober').state).toBe('active');
});

test('a plugin that never answers is given up on after the timeout and its margin', async () => {
  h = createHarness([fixture('prober')]);
  await h.service.start();
  await expect(h.service.probe('prober', request('hang'), { timeoutMs: 50 })).rejects.toMatchObject({
    code: 'unavailable',
    message: expect.stringMatching(/^The Prober plugin could not test the connection: The plugin 'prober' did not answer \$probe within/),
  });
  expect(h.service.get('prober').state).toBe('active');
});

test('a request main would not accept never reaches the plugin', async () => {
  h = createHarness([fixture('prober')]);
  await h.service.start();
  await expect(h.service.probe('prober', { flavor: 'plain', baseUrl: 'not a url' })).rejects.toThrow(/Invalid URL|baseUrl/i);
  await expect(h.service.probe('prober', { flavor: '', baseUrl: 'http://127.0.0.1:9/v1' })).rejects.toThrow();
});

test('a plugin without a probe, one that is off and one that failed each say so, and nothing is started', async () => {
  h = createHarness([fixture('echo'), fixture('prober', { enabledByDefault: false }), fixture('faulty')]);
  h.config.set('faulty', { mode: 'initialize-false' });
  await h.service.start();
  await expect(h.service.probe('echo', request('plain'))).rejects.toMatchObject({
    code: 'unavailable',
    message: expect.stringContaining('This plugin cannot test a connection: it has no probe().'),
  });
  await expect(h.service.probe('prober', request('plain'))).rejects.toMatchObject({
    code: 'unavailable',
    message: 'Turn the Prober plugin on in Settings to test a connection.',
  });
  expect(h.service.get('prober')).toMatchObject({ state: 'registered', pid: null });
  await expect(h.service.probe('faulty', request('plain'))).rejects.toMatchObject({
    code: 'unavailable',
    message:
      'The Faulty plugin is not running (The plugin declined to start: initialize() returned false), so the connection cannot be tested. Switch it off and on in Settings, then test again.',
  });
  await expect(h.service.probe('nobody', request('plain'))).rejects.toMatchObject({ code: 'not_found' });
});
