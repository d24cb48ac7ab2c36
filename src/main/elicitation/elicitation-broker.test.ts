import { expect, test } from 'vitest';
import type { ElicitationRequest } from '../../shared/elicitation/index.ts';
import { ElicitationBroker, type ElicitationChange } from './elicitation-broker.ts';

const request: ElicitationRequest = {
  requestId: 'r1',
  source: 'weather',
  message: 'Which city?',
  fields: [
    { kind: 'text', name: 'city', title: 'City', required: true },
    { kind: 'integer', name: 'days', required: false, minimum: 1, maximum: 7, default: 3 },
  ],
};

function broker(canAsk: (sessionId: string | undefined) => boolean = () => true) {
  let n = 0;
  const b = new ElicitationBroker({ canAsk, newId: () => `q${++n}` });
  const changes: ElicitationChange[] = [];
  b.onDidChange((c) => changes.push(c));
  return { b, changes };
}

test('a form waits for the window, and an accepted answer goes back checked, with the call it belongs to', async () => {
  const { b, changes } = broker();
  const answer = b.ask('mcp', request, { sessionId: 's1', toolName: 'mcp__weather__forecast' });
  expect(b.pending()).toEqual([expect.objectContaining({ id: 'q1', source: 'weather', sessionId: 's1', toolName: 'mcp__weather__forecast' })]);
  b.answer('q1', { action: 'accept', content: { city: 'Lyon', days: 3 } });
  await expect(answer).resolves.toEqual({ action: 'accept', content: { city: 'Lyon', days: 3 } });
  expect(changes.map((c) => c.kind)).toEqual(['requested', 'settled']);
  expect(b.pending()).toEqual([]);
});

test('an answer that does not fit the form is refused with a sentence naming the field, and the form stays open', async () => {
  const { b } = broker();
  const answer = b.ask('mcp', request);
  expect(() => b.answer('q1', { action: 'accept', content: { days: 3 } })).toThrow(/City: Fill this in/);
  expect(() => b.answer('q1', { action: 'accept', content: { city: 'Lyon', days: 9 } })).toThrow(/days: Enter 7 or less/);
  expect(() => b.answer('q1', { action: 'accept', content: { city: 'Lyon', extra: 'x' } })).toThrow(/no such field/);
  expect(b.pending()).toHaveLength(1);
  b.answer('q1', { action: 'decline' });
  await expect(answer).resolves.toEqual({ action: 'decline' });
  expect(() => b.answer('q1', { action: 'cancel' })).toThrow(/already answered/);
});

test('with no one to ask about the conversation, a form is declined at once and never shown', async () => {
  const { b, changes } = broker((sessionId) => sessionId !== 'scheduled');
  await expect(b.ask('mcp', request, { sessionId: 'scheduled', toolName: 'mcp__weather__forecast' })).resolves.toEqual({ action: 'decline' });
  expect(changes).toEqual([]);
  expect(b.pending()).toEqual([]);
  void b.ask('mcp', request, { sessionId: 'other' });
  expect(b.pending()).toHaveLength(1);
});

test("a form its asker withdraws, or whose plugin stops, is answered as cancelled and leaves the window; another plugin's stays", async () => {
  const { b } = broker();
  const first = b.ask('mcp', request);
  const second = b.ask('mcp', { ...request, requestId: 'r2' });
  const other = b.ask('other', request);
  b.cancel('mcp', 'r1');
  await expect(first).resolves.toEqual({ action: 'cancel' });
  b.withdrawAll('mcp');
  await expect(second).resolves.toEqual({ action: 'cancel' });
  expect(b.pending().map((q) => q.pluginId)).toEqual(['other']);
  b.dispose();
  await expect(other).resolves.toEqual({ action: 'cancel' });
});
