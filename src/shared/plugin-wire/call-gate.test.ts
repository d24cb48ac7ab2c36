import { expect, test } from 'vitest';
import { applyMessage, errorReply, peekEnvelope, readCall, readEnvelope, readReply } from './index.ts';
import { createLineSplitter } from './index.ts';
import { checkPlainData } from './index.ts';

const methods = new Set(['$log', '$emit']);
const raw = (value: unknown) => ({ type: 'RAW', value });
const bytes = (s: string) => new TextEncoder().encode(s);

test('an APPLY of a known method with plain arguments passes and is rebuilt as a fresh message', () => {
  const m = { id: 'c1', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw({ a: [1, 'x', null, true] })], extra: 'ignored' };
  const gated = readCall(m, methods);
  expect(gated).toEqual({ ok: true, value: { id: 'c1', method: '$emit', args: ['t', { a: [1, 'x', null, true] }] } });
  expect(applyMessage('c1', '$emit', ['t', 1])).toEqual({ id: 'c1', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw(1)] });
  // JSON leaves an undefined argument out: `{ type: 'RAW' }` is undefined.
  expect(readCall({ id: 'c2', type: 'APPLY', path: ['$log'], argumentList: [raw('info'), raw('x'), { type: 'RAW' }] }, methods)).toMatchObject({
    ok: true,
    value: { args: ['info', 'x', undefined] },
  });
});

test.each([
  ['a SET through __proto__', { id: 'x', type: 'SET', path: ['__proto__', 'polluted'], value: raw(1) }, /SET message/],
  ['a GET', { id: 'x', type: 'GET', path: ['$log'] }, /GET message/],
  ['a CONSTRUCT', { id: 'x', type: 'CONSTRUCT', path: ['$log'], argumentList: [] }, /CONSTRUCT message/],
  ['an ENDPOINT', { id: 'x', type: 'ENDPOINT' }, /ENDPOINT message/],
  ['a RELEASE', { id: 'x', type: 'RELEASE' }, /RELEASE message/],
  ['a path of two', { id: 'x', type: 'APPLY', path: ['constructor', 'assign'], argumentList: [] }, /not one method name/],
  ['an inherited name', { id: 'x', type: 'APPLY', path: ['hasOwnProperty'], argumentList: [] }, /not a known method/],
  ['__proto__ as the method', { id: 'x', type: 'APPLY', path: ['__proto__'], argumentList: [] }, /not a known method/],
  ['no id', { type: 'APPLY', path: ['$log'], argumentList: [] }, /no valid call id/],
  ['an id too long', { id: 'x'.repeat(200), type: 'APPLY', path: ['$log'], argumentList: [] }, /no valid call id/],
  ['an argument list that is not a list', { id: 'x', type: 'APPLY', path: ['$log'], argumentList: 5 }, /argument list is malformed/],
  ['a proxy argument', { id: 'x', type: 'APPLY', path: ['$log'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: {} }] }, /not plain data/],
  [
    'a __proto__ key in the data',
    { id: 'x', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw(JSON.parse('{"a":{"__proto__":{"polluted":1}}}'))] },
    /__proto__/,
  ],
  ['a class instance', { id: 'x', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw(new Date())] }, /not a plain object/],
  ['a function', { id: 'x', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw(() => 1)] }, /type function/],
  [
    'a getter',
    { id: 'x', type: 'APPLY', path: ['$emit'], argumentList: [raw('t'), raw(Object.defineProperty({}, 'a', { get: () => 1, enumerable: true }))] },
    /accessor/,
  ],
  ['not an object', 'APPLY', /not an object/],
])('the gate refuses %s', (_name, m, reason) => {
  const gated = readCall(m, methods);
  expect(gated.ok).toBe(false);
  if (!gated.ok) expect(gated.reason).toMatch(reason);
});

test('the plain-data walk refuses cycles and deep nesting, and stops at the size cap however the value is shared', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  expect(checkPlainData(cycle)).toMatchObject({ ok: false, reason: expect.stringMatching(/deeper than 64/) });
  // 2^40 paths through one shared array: the walk ends as soon as the cap is passed.
  let shared: unknown[] = ['x'];
  for (let i = 0; i < 40; i++) shared = [shared, shared];
  const started = performance.now();
  const checked = checkPlainData(shared, 10_000);
  expect(checked.ok && checked.bytes).toBeGreaterThan(10_000);
  expect(performance.now() - started).toBeLessThan(100);
});

test('a reply is a plain value or an error reduced to strings; anything else is refused', () => {
  expect(readReply({ type: 'RAW', value: { a: 1 }, id: 'r1' })).toEqual({ ok: true, value: { id: 'r1', type: 'RAW', value: { a: 1 } } });
  const thrown = readReply({
    type: 'HANDLER',
    name: 'throw',
    value: { isError: true, value: JSON.parse('{"message":"no","name":"TypeError","stack":"s","__proto__":{"x":1},"extra":{}}') },
    id: 'r2',
  });
  expect(thrown).toEqual({ ok: true, value: errorReply('r2', 'no', 'TypeError', 's') });
  expect(readReply({ type: 'HANDLER', name: 'proxy', value: {}, id: 'r3' })).toMatchObject({ ok: false });
  expect(readReply({ type: 'HANDLER', name: 'throw', value: null, id: 'r4' })).toMatchObject({ ok: false });
  expect(readReply({ type: 'HANDLER', name: 'throw', value: { isError: true, value: null }, id: 'r5' })).toMatchObject({ ok: false });
  expect(readReply({ type: 'RAW', value: new Map(), id: 'r6' })).toMatchObject({ ok: false });
});

test('envelopes: only `{ ch, m }` objects; the id of a serialized request or reply is read from its ends', () => {
  expect(readEnvelope({ ch: 'host', m: 1 })).toEqual({ ch: 'host', m: 1 });
  expect(readEnvelope({ cmd: 'NODE_HANDLE_ACK' })).toBeNull();
  expect(readEnvelope([])).toBeNull();
  expect(readEnvelope(Object.create({ ch: 'host' }))).toBeNull();
  const request = JSON.stringify({ ch: 'host', m: applyMessage('abc-1', '$emit', ['t', 'x'.repeat(1000)]) });
  expect(peekEnvelope(request)).toEqual({ ch: 'host', id: 'abc-1' });
  const reply = JSON.stringify({ ch: 'plugin', m: { type: 'RAW', value: 'x'.repeat(1000), id: 'r-9' } });
  expect(peekEnvelope(reply)).toEqual({ ch: 'plugin', id: 'r-9' });
  expect(peekEnvelope('garbage')).toEqual({});
});

test('the line splitter joins lines across chunks, and stops at the first line over its cap', () => {
  const lines: string[] = [];
  let overflow = 0;
  const split = createLineSplitter(
    10,
    (l) => lines.push(new TextDecoder().decode(l)),
    (n) => (overflow = n),
  );
  split.push(bytes('ab'));
  split.push(bytes('c\nde\n\nf'));
  split.push(bytes('g\n'));
  expect(lines).toEqual(['abc', 'de', 'fg']);
  split.push(bytes('0123456'));
  split.push(bytes('789ab'));
  expect(overflow).toBe(12);
  split.push(bytes('\nlater\n'));
  expect(lines).toEqual(['abc', 'de', 'fg']);
});
