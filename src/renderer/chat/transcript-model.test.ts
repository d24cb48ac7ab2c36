import { expect, test } from 'vitest';
import type { Entry } from '../../shared/sessions/index.ts';
import { toTranscriptItems } from './transcript-model.ts';

let n = 0;
const entry = (message: Record<string, unknown>): Entry =>
  ({ id: `e${++n}`, parentId: null, type: 'message', timestamp: '2026-11-30T00:00:00.000Z', message }) as unknown as Entry;
const user = (text: string) => entry({ role: 'user', content: text });
const toolCall = (id: string) =>
  entry({ role: 'assistant', content: [{ type: 'toolCall', id, name: 'read', arguments: {} }], stopReason: 'toolUse', model: 'm' });
const result = (id: string) => entry({ role: 'toolResult', toolCallId: id, toolName: 'read', content: [{ type: 'text', text: 'ok' }], isError: false });
const reply = (text: string) => entry({ role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop', model: 'm' });
const midTurn = (items: ReturnType<typeof toTranscriptItems>) => items.flatMap((i) => (i.kind === 'assistant' ? [Boolean(i.midTurn)] : []));

test('a reply that only called tools is mid-turn when the final reply of its turn follows', () => {
  const items = toTranscriptItems([user('q'), toolCall('c1'), result('c1'), toolCall('c2'), result('c2'), reply('done'), user('again'), reply('sure')]);
  expect(midTurn(items)).toEqual([true, true, false, false]);
});

test('the last tool-calling reply is mid-turn while the turn still streams, and not when the turn ended there', () => {
  const entries = [user('q'), toolCall('c1'), result('c1')];
  expect(midTurn(toTranscriptItems(entries, new Map(), true))).toEqual([true]);
  expect(midTurn(toTranscriptItems(entries))).toEqual([false]);
  // A new question after an interrupted turn: the interrupted reply keeps its model and regenerate button.
  expect(midTurn(toTranscriptItems([...entries, user('next'), reply('ok')]))).toEqual([false, false]);
});
