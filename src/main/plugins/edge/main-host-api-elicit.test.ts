// A plugin's form for the user crosses the plugin edge through $elicit: checked whole, refused with a sentence
// when its shape is hostile, tied only to this plugin's own running calls, and withdrawn when the plugin stops.
import { expect, test } from 'vitest';
import { HostApiArgs } from '../../../shared/plugins/index.ts';
import type { ElicitationRequest } from '../../../shared/elicitation/index.ts';
import { ElicitationBroker } from '../../elicitation/index.ts';
import type { ToolUpdateSinks } from '../runtime/contribution-installer.ts';
import { createMainHostApi, type MainHostApiDeps } from './main-host-api.ts';

const form: ElicitationRequest = {
  requestId: 'e1',
  source: 'weather',
  message: 'Which city?',
  fields: [{ kind: 'text', name: 'city', required: true }],
};

function setup(canAsk = true) {
  const broker = new ElicitationBroker({ canAsk: () => canAsk });
  const owned: { dispose(): void }[] = [];
  const toolUpdates: ToolUpdateSinks = new Map([['t1', { deliver: () => {}, streamed: 0, tool: 'mcp__weather__forecast', sessionId: 's1' }]]);
  const deps: MainHostApiDeps = {
    pluginId: 'mcp',
    registries: {} as MainHostApiDeps['registries'],
    bus: {} as MainHostApiDeps['bus'],
    sinks: new Map(),
    toolUpdates,
    config: () => ({}),
    own: (_label, d) => (owned.push(d), true),
    deliver: () => {},
    log: () => {},
    elicitations: broker,
  };
  return { api: createMainHostApi(deps), broker, owned };
}

test("a form for a running call reaches the broker with that call's conversation and tool, and the user's answer goes back", async () => {
  const { api, broker } = setup();
  const answer = api.$elicit({ ...form, callId: 't1' });
  await Promise.resolve();
  const [question] = broker.pending();
  expect(question).toMatchObject({ pluginId: 'mcp', source: 'weather', sessionId: 's1', toolName: 'mcp__weather__forecast' });
  broker.answer(question!.id, { action: 'accept', content: { city: 'Oslo' } });
  await expect(answer).resolves.toEqual({ action: 'accept', content: { city: 'Oslo' } });
});

test('hostile forms are refused with a sentence, at the gate and in main, and nothing is shown', async () => {
  const { api, broker } = setup();
  const hostile: unknown[] = [
    null,
    'x',
    { ...form, fields: [{ kind: 'html', name: 'x', required: false }] },
    { ...form, fields: [{ kind: 'text', name: '<script>', required: false }] },
    { ...form, message: 'x'.repeat(5000) },
    { ...form, extra: true },
    { ...form, fields: [{ kind: 'choice', name: 'c', required: false, options: [] }] },
  ];
  for (const raw of hostile) {
    expect(HostApiArgs.$elicit.safeParse([raw]).success, JSON.stringify(raw)?.slice(0, 60)).toBe(false);
    await expect(api.$elicit(raw as ElicitationRequest)).rejects.toThrow(/^A form to ask the user was refused/);
  }
  // A call of another plugin, or one that ended, cannot carry a form.
  await expect(api.$elicit({ ...form, callId: 't9' })).rejects.toThrow(/names a tool call of this plugin that is not running/);
  expect(HostApiArgs.$elicitCancel.safeParse([{ id: 1 }]).success).toBe(false);
  expect(broker.pending()).toEqual([]);
});

test('with no one to ask the form is declined at once; a withdrawn form and a stopped plugin answer cancel', async () => {
  await expect(setup(false).api.$elicit(form)).resolves.toEqual({ action: 'decline' });
  const { api, broker, owned } = setup();
  const first = api.$elicit(form);
  await Promise.resolve();
  await api.$elicitCancel('e1');
  await expect(first).resolves.toEqual({ action: 'cancel' });
  const second = api.$elicit({ ...form, requestId: 'e2' });
  await Promise.resolve();
  expect(broker.pending()).toHaveLength(1);
  for (const d of owned) d.dispose();
  await expect(second).resolves.toEqual({ action: 'cancel' });
  expect(broker.pending()).toEqual([]);
});
