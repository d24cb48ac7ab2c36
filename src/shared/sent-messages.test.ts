import { expect, test } from 'vitest';
import { MISSING_MESSAGES, sameData, SentMessages } from './sent-messages.ts';

const user = (text: string) => ({ role: 'user', content: text });
const reply = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });

/** What crosses the pipe: a JSON round trip, as the fork launcher's pipe does it. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('each turn sends only the messages after those the last request already carried, and the other end rebuilds them all', () => {
  const main = new SentMessages();
  const plugin = new SentMessages();
  let conversation: unknown[] = [user('read the file')];
  for (let turn = 0; turn < 5; turn++) {
    // Main rebuilds the conversation from its store each turn: equal messages, new objects.
    const fresh = wire(conversation);
    const sent = wire(main.encode(`s${turn}`, fresh));
    if (turn === 0) expect(sent).toEqual({ messages: [user('read the file')] });
    else expect(sent).toEqual({ messages: fresh.slice(conversation.length - 2), from: { streamId: `s${turn - 1}`, keep: conversation.length - 2 } });
    expect(plugin.decode(`s${turn}`, sent.messages, sent.from)).toEqual(fresh);
    conversation = [...conversation, reply(`turn ${turn}`), user(`result ${turn}`)];
  }
});

test('a request that changes an earlier message sends everything from that message on', () => {
  const main = new SentMessages();
  const plugin = new SentMessages();
  const first = [user('a'), reply('b'), user('c')];
  plugin.decode('s1', main.encode('s1', first).messages, undefined);
  const edited = [user('a'), reply('B'), user('c'), reply('d')];
  const sent = main.encode('s2', edited);
  expect(sent).toEqual({ messages: edited.slice(1), from: { streamId: 's1', keep: 1 } });
  expect(plugin.decode('s2', sent.messages, sent.from)).toEqual(edited);
  // Nothing in common: sent whole, without a base.
  expect(main.encode('s3', [user('other')])).toEqual({ messages: [user('other')] });
  // Asked to, it sends all even when it could build on an earlier request.
  expect(main.encode('s4', edited, true)).toEqual({ messages: edited });
});

test('both ends forget the same requests, so main never builds on one the other end dropped', () => {
  const main = new SentMessages(2);
  const plugin = new SentMessages(2);
  for (const id of ['a', 'b', 'c']) plugin.decode(id, main.encode(id, [user(id)]).messages, undefined);
  // 'a' is gone on both ends: a request starting like it is sent whole.
  expect(main.encode('d', [user('a'), user('more')])).toEqual({ messages: [user('a'), user('more')] });
  expect(() => plugin.decode('e', [], { streamId: 'a', keep: 1 })).toThrow(MISSING_MESSAGES);
});

test.each([
  ['a stream it never received', { streamId: 'nope', keep: 0 }],
  ['more messages than that stream had', { streamId: 's1', keep: 2 }],
  ['a negative count', { streamId: 's1', keep: -1 }],
  ['a count that is not a whole number', { streamId: 's1', keep: 0.5 }],
])('a request that builds on %s is refused with MISSING_MESSAGES, and nothing is recorded for it', (_what, from) => {
  const plugin = new SentMessages();
  plugin.decode('s1', [user('only')], undefined);
  expect(() => plugin.decode('s2', [user('next')], from)).toThrow(MISSING_MESSAGES);
  expect(() => plugin.decode('s3', [], { streamId: 's2', keep: 0 })).toThrow(MISSING_MESSAGES);
});

test('messages kept for later requests are frozen, so a provider cannot change what the next request builds on', () => {
  const plugin = new SentMessages();
  const [message] = plugin.decode('s1', [reply('kept')], undefined) as [{ content: { text: string }[] }];
  expect(() => {
    message.content[0]!.text = 'changed';
  }).toThrow(TypeError);
  expect(plugin.decode('s2', [], { streamId: 's1', keep: 1 })).toEqual([reply('kept')]);
});

test('messages compare as JSON carries them: an undefined field is absent, anything but plain data differs', () => {
  expect(sameData({ a: 1, b: undefined, c: [1, { d: 'x' }] }, { c: [1, { d: 'x' }], a: 1 })).toBe(true);
  expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  expect(sameData({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
  expect(sameData([1], { 0: 1 })).toBe(false);
  expect(sameData({ a: null }, { a: undefined })).toBe(false);
  expect(sameData(new Date(0), new Date(0))).toBe(false);
  expect(sameData(Object.create({ inherited: 1 }) as object, {})).toBe(false);
});
