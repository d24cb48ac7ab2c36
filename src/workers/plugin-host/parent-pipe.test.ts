import { expect, test } from 'vitest';
import { admitFromMain } from './parent-pipe.ts';

// The plugin host's gate: from main it takes calls of known PluginApi methods with plain data, replies to
// its own HostApi calls, and the request to close; nothing else reaches comlink in the plugin process.

const call = (method: string, args: unknown[], extra: Record<string, unknown> = {}) => ({
  ch: 'plugin',
  m: { id: 'c1', type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })), ...extra },
});

test('a call of a known PluginApi method is let through, rebuilt without anything else it carried', () => {
  expect(admitFromMain(call('$executeTool', ['t1', 'echo', { text: 'hi' }], { extra: 'dropped' }))).toEqual(
    call('$executeTool', ['t1', 'echo', { text: 'hi' }]),
  );
  expect(admitFromMain(call('$runHook', ['tool_call', { toolName: 'write' }]))).toEqual(call('$runHook', ['tool_call', { toolName: 'write' }]));
  expect(admitFromMain(call('$probe', [{ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1' }, 800]))).toEqual(
    call('$probe', [{ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1' }, 800]),
  );
  expect(admitFromMain({ ch: 'close' })).toEqual({ ch: 'close' });
  expect(admitFromMain({ ch: 'host', m: { type: 'RAW', value: { a: 1 }, id: 'h1' } })).toEqual({ ch: 'host', m: { id: 'h1', type: 'RAW', value: { a: 1 } } });
});

test.each([
  ['a GET', { ch: 'plugin', m: { id: 'x', type: 'GET', path: ['constructor'] } }],
  ['a SET through __proto__', { ch: 'plugin', m: { id: 'x', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 1 } } }],
  ['an unknown method', call('$evaluate', ['process.exit()'])],
  ['a path through a known method', { ch: 'plugin', m: { id: 'x', type: 'APPLY', path: ['$probe', 'constructor'], argumentList: [] } }],
  ['a method of HostApi on the plugin channel', call('$log', ['info', 'x'])],
  ['a proxy as a reply', { ch: 'host', m: { type: 'HANDLER', name: 'proxy', value: {}, id: 'h' } }],
  ['an unknown channel', { ch: 'ready' }],
  ['Node IPC control', { cmd: 'NODE_HANDLE_ACK' }],
])('%s from main is dropped', (_name, message) => {
  expect(admitFromMain(message)).toBeNull();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("main's notes are let through for the methods main sends one way, as method and arguments only", () => {
  expect(
    admitFromMain({
      ch: 'note',
      m: [
        ['$event', ['agent.event', { type: 'turn_end' }]],
        ['$event', ['t', null]],
      ],
      extra: 1,
    }),
  ).toEqual({
    ch: 'note',
    m: [
      ['$event', ['agent.event', { type: 'turn_end' }]],
      ['$event', ['t', null]],
    ],
  });
});

test.each([
  ['a call method sent as a note', { ch: 'note', m: [['$executeTool', ['t1', 'echo', {}]]] }],
  [
    'one bad note among good ones',
    {
      ch: 'note',
      m: [
        ['$event', ['t', {}]],
        ['$event', 'not a list'],
      ],
    },
  ],
  ['a note whose arguments are not plain data', { ch: 'note', m: [['$event', ['t', new Date(0)]]] }],
  ['an empty list', { ch: 'note', m: [] }],
  ['more notes than a message carries', { ch: 'note', m: Array.from({ length: 33 }, () => ['$event', ['t', {}]]) }],
])('%s is dropped', (_name, message) => {
  expect(admitFromMain(message)).toBeNull();
});

test('in a shared host, the same gate holds for each plugin: the envelope keeps its plugin name, and a request to open is let through', () => {
  expect(admitFromMain({ p: 'budget', ...call('$executeTool', ['t1', 'echo', {}], { extra: 'dropped' }) })).toEqual({
    p: 'budget',
    ...call('$executeTool', ['t1', 'echo', {}]),
  });
  expect(admitFromMain({ p: 'budget', ch: 'open', extra: 1 })).toEqual({ p: 'budget', ch: 'open' });
  expect(admitFromMain({ p: 'budget', ch: 'close' })).toEqual({ p: 'budget', ch: 'close' });
});

test.each([
  ['a name out of the rules', { p: '../budget', ch: 'open' }],
  ['a name that is not a string', { p: { toString: 'budget' }, ch: 'open' }],
  ['a name too long', { p: 'b'.repeat(65), ch: 'open' }],
  ['a call the gate refuses', { p: 'budget', ...call('$evaluate', ['process.exit()']) }],
  ["the host's own answer sent the other way", { p: 'budget', ch: 'closed' }],
])('in a shared host, %s from main is dropped', (_name, message) => {
  expect(admitFromMain(message)).toBeNull();
});
