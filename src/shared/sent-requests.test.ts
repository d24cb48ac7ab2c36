import { expect, test } from 'vitest';
import { MISSING_MESSAGES, sameData, type SentRequest, SentRequests } from './sent-requests.ts';

const user = (text: string) => ({ role: 'user', content: text });
const reply = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
const tools = [{ name: 'read', description: 'Reads a file.', parameters: { type: 'object' } }];
const req = (messages: unknown[], systemPrompt = 'Be brief.', t: unknown[] = tools): SentRequest => ({ systemPrompt, tools: t, messages });

/** What crosses the pipe: a JSON round trip, as the fork launcher's pipe does it. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('each turn sends only the messages after those the last request carried, without its system prompt and tools, and the other end rebuilds it whole', () => {
  const main = new SentRequests();
  const plugin = new SentRequests();
  let conversation: unknown[] = [user('read the file')];
  for (let turn = 0; turn < 5; turn++) {
    // Main rebuilds the conversation from its store each turn: equal messages, new objects.
    const fresh = wire(req(conversation));
    const sent = wire(main.encode(`s${turn}`, fresh));
    if (turn === 0) expect(sent).toEqual({ request: req([user('read the file')]) });
    else {
      expect(sent).toEqual({
        request: req(fresh.messages.slice(conversation.length - 2), '', []),
        base: { streamId: `s${turn - 1}`, keep: conversation.length - 2, systemPrompt: true, tools: true },
      });
    }
    expect(plugin.decode(`s${turn}`, sent.request, sent.base)).toEqual(fresh);
    conversation = [...conversation, reply(`turn ${turn}`), user(`result ${turn}`)];
  }
});

test('a caller that adds to the same list after each request still sends only what it added', () => {
  const main = new SentRequests();
  const plugin = new SentRequests();
  const messages: unknown[] = [user('read the file')];
  for (let turn = 0; turn < 4; turn++) {
    const sent = wire(main.encode(`s${turn}`, req(messages)));
    if (turn > 0)
      expect(sent).toEqual({
        request: req(messages.slice(-2), '', []),
        base: { streamId: `s${turn - 1}`, keep: messages.length - 2, systemPrompt: true, tools: true },
      });
    expect(plugin.decode(`s${turn}`, sent.request, sent.base)).toEqual(req(messages));
    messages.push(reply(`turn ${turn}`), user(`result ${turn}`));
  }
});

test('a request that changes an earlier message, the system prompt or the tools sends what changed', () => {
  const main = new SentRequests();
  const plugin = new SentRequests();
  const first = req([user('a'), reply('b'), user('c')]);
  plugin.decode('s1', main.encode('s1', first).request, undefined);
  const edited = req([user('a'), reply('B'), user('c'), reply('d')], 'Be very brief.');
  const sent = main.encode('s2', edited);
  expect(sent).toEqual({ request: req(edited.messages.slice(1), 'Be very brief.', []), base: { streamId: 's1', keep: 1, tools: true } });
  expect(plugin.decode('s2', sent.request, sent.base)).toEqual(edited);
  // Nothing in common: sent whole, without a base.
  expect(main.encode('s3', req([user('other')], 'x', []))).toEqual({ request: req([user('other')], 'x', []) });
  // Asked to, it sends all even when it could build on an earlier request.
  expect(main.encode('s4', edited, true)).toEqual({ request: edited });
});

test('both ends forget the same requests, so main never builds on one the other end dropped', () => {
  const main = new SentRequests(2);
  const plugin = new SentRequests(2);
  for (const id of ['a', 'b', 'c']) plugin.decode(id, main.encode(id, req([user(id)], id, [id])).request, undefined);
  // 'a' is gone on both ends: a request starting like it is sent whole.
  expect(main.encode('d', req([user('a'), user('more')], 'a', ['a']))).toEqual({ request: req([user('a'), user('more')], 'a', ['a']) });
  expect(() => plugin.decode('e', req([]), { streamId: 'a', keep: 1 })).toThrow(MISSING_MESSAGES);
});

test.each([
  ['a stream it never received', { streamId: 'nope', keep: 0 }],
  ['more messages than that stream had', { streamId: 's1', keep: 2 }],
  ['a negative count', { streamId: 's1', keep: -1 }],
  ['a count that is not a whole number', { streamId: 's1', keep: 0.5 }],
])('a request that builds on %s is refused with MISSING_MESSAGES, and nothing is recorded for it', (_what, base) => {
  const plugin = new SentRequests();
  plugin.decode('s1', req([user('only')]), undefined);
  expect(() => plugin.decode('s2', req([user('next')]), base)).toThrow(MISSING_MESSAGES);
  expect(() => plugin.decode('s3', req([]), { streamId: 's2', keep: 0 })).toThrow(MISSING_MESSAGES);
});

test('what is kept for later requests is frozen, so a provider cannot change what the next request builds on', () => {
  const plugin = new SentRequests();
  const kept = plugin.decode('s1', req([reply('kept')]), undefined) as unknown as { messages: { content: { text: string }[] }[]; tools: { name: string }[] };
  expect(() => {
    kept.messages[0]!.content[0]!.text = 'changed';
  }).toThrow(TypeError);
  expect(() => {
    kept.tools[0]!.name = 'changed';
  }).toThrow(TypeError);
  expect(plugin.decode('s2', req([], '', []), { streamId: 's1', keep: 1, systemPrompt: true, tools: true })).toEqual(req([reply('kept')]));
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
