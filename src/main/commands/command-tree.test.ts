import { describe, expect, test } from 'vitest';
import { CommandTree, UNKNOWN_COMMAND } from './command-tree.ts';

const ctx = { sessionId: 's1' };

describe('dispatch', () => {
  test('walks documented children and passes the rest as the argument', async () => {
    const tree = new CommandTree();
    const calls: string[] = [];
    tree.registerAction('plugin.off', (arg) => {
      calls.push(arg);
      return `turned ${arg} off`;
    });
    expect(await tree.run('/set plugin off  budget ', ctx)).toEqual({ kind: 'ok', text: 'turned budget off' });
    expect(calls).toEqual(['budget']);
  });

  test('a node without an action prints its man page', async () => {
    const tree = new CommandTree();
    const result = await tree.run('/set policy', ctx);
    expect(result.kind).toBe('help');
    expect(result.text).toContain('read|write|yolo');
    expect(result.text).toContain('/set policy yolo');
    // The man page says plainly what yolo still asks about and what it never does.
    expect(result.text).toMatch(
      /yolo: runs without asking, except that it still asks before changing a protected path .* and before a shell line that is destructive, cannot be judged or names a path outside the workspace/,
    );
    expect(result.text).toMatch(/no tool touches Amber's data folder\. In yolo the shell runs in the sandbox with the network on\./);
  });

  test('an unknown command says how to find the right one', async () => {
    const tree = new CommandTree();
    expect(await tree.run('/frobnicate now', ctx)).toEqual({ kind: 'error', text: UNKNOWN_COMMAND });
    expect(await tree.run('/set nothing', ctx)).toEqual({ kind: 'error', text: UNKNOWN_COMMAND });
    expect(UNKNOWN_COMMAND).toBe('unknown command (try /help)');
  });

  test("a handler's error goes to the status line, never a crash", async () => {
    const tree = new CommandTree();
    tree.registerAction('session.compact', () => {
      throw new Error('Nothing to compact yet.');
    });
    expect(await tree.run('/compact', ctx)).toEqual({ kind: 'error', text: '/compact: Nothing to compact yet.' });
    expect(await tree.run('/compact now', ctx)).toMatchObject({ kind: 'error', text: expect.stringContaining('takes no argument') });
  });

  test('/help lists commands and shows a man page', async () => {
    const tree = new CommandTree();
    const all = await tree.run('/help', ctx);
    for (const name of ['/new', '/model', '/branch', '/label', '/compact', '/set', '/help']) expect(all.text).toContain(name);
    expect((await tree.run('/help set plugin', ctx)).text).toContain('/set plugin on|off <plugin-id>');
    expect((await tree.run('/help nope', ctx)).text).toBe(UNKNOWN_COMMAND);
  });

  test('an invalid tree source is refused with the field named', () => {
    expect(() => new CommandTree({ help: 'root', children: { Bad: { help: 'x' } } })).toThrow(/invalid/);
    expect(() => new CommandTree({ children: {} })).toThrow(/help/);
  });
});

describe('feeds and plugin commands', () => {
  test('a feed completes the argument but never overwrites documented help', () => {
    const tree = new CommandTree();
    tree.registerFeed('plugins', () => [
      { name: 'budget', help: 'Budget plugin' },
      { name: 'metrics', help: 'Metrics plugin' },
    ]);
    expect(tree.complete('/set plugin on b')).toEqual([{ insert: '/set plugin on budget ', label: 'budget', help: 'Budget plugin' }]);
    tree.registerFeed('models', () => [{ name: 'help', help: 'a model called help' }]);
    expect(tree.list().find((v) => v.path.join(' ') === 'help')!.help).toBe('Show the manual page of a command');
  });

  test('completion walks the typed words', () => {
    const tree = new CommandTree();
    expect(tree.complete('/se').map((c) => c.label)).toEqual(['set']);
    expect(tree.complete('/set p').map((c) => c.label)).toEqual(['plugin', 'policy']);
    expect(tree.complete('/set policy ').map((c) => c.insert)).toEqual(['/set policy read ', '/set policy write ', '/set policy yolo ']);
    expect(tree.complete('/zzz x')).toEqual([]);
    expect(tree.complete('hello')).toEqual([]);
  });

  test('a path feed completes one step at a time, and an item with values completes them after it', () => {
    const tree = new CommandTree();
    const items = [
      {
        name: 'plugin.wallet.deepseek.currency',
        help: 'Wallet: Currency',
        values: [
          { name: 'CNY', help: 'yuan' },
          { name: 'USD', help: 'dollars' },
        ],
      },
      { name: 'plugin.wallet.warnBelow', help: 'Wallet: Warn below' },
      { name: 'plugin.budget.warnAt', help: 'Budget: Warn at' },
    ];
    tree.registerFeed('settings', () => items, { separator: '.' });
    expect(tree.complete('/set plugin.w')).toEqual([{ insert: '/set plugin.wallet.', label: 'plugin.wallet.', help: 'Settings under plugin.wallet…' }]);
    expect(tree.complete('/set plugin.wallet.').map((c) => c.insert)).toEqual(['/set plugin.wallet.deepseek.', '/set plugin.wallet.warnBelow ']);
    expect(tree.complete('/set plugin.wallet.deepseek.currency U')).toEqual([
      { insert: '/set plugin.wallet.deepseek.currency USD ', label: 'USD', help: 'dollars' },
    ]);
    expect(tree.complete('/set plugin.wallet.warnBelow ')).toEqual([]);
    // Only the last whole word may be such an item: nothing completes past its value.
    expect(tree.complete('/set plugin.wallet.deepseek.currency USD ')).toEqual([]);
  });

  test('a plugin command is added live and removed by its disposable', async () => {
    const tree = new CommandTree();
    let changes = 0;
    tree.onDidChange(() => changes++);
    const reg = tree.registerCommand({ path: ['budget'], help: 'Show budgets', source: 'plugin:budget', handler: () => 'all fine' });
    expect(await tree.run('/budget', ctx)).toEqual({ kind: 'ok', text: 'all fine' });
    expect(tree.list().some((v) => v.source === 'plugin:budget')).toBe(true);
    reg.dispose();
    expect(await tree.run('/budget', ctx)).toEqual({ kind: 'error', text: UNKNOWN_COMMAND });
    expect(changes).toBe(2);
    expect(() => tree.registerCommand({ path: ['set'], help: 'x', source: 'plugin:evil', handler: () => '' })).toThrow(/already exists/);
  });

  test("a handler's insert result comes back as text for the message box, not the status line", async () => {
    const tree = new CommandTree();
    tree.registerCommand({ path: ['mcp.docs.review'], help: 'A prompt', source: 'plugin:mcp', handler: (arg) => ({ insert: `Review ${arg}.` }) });
    expect(await tree.run('/mcp.docs.review notes.md', ctx)).toEqual({ kind: 'insert', text: 'Review notes.md.' });
  });

  test("a plugin command's feed completes its verbs and, after a verb, the verb's values; without the feed nothing is offered", () => {
    const tree = new CommandTree();
    tree.registerCommand({ path: ['srv'], help: 'Servers', feed: 'command:srv', source: 'plugin:srv', handler: () => 'ok' });
    expect(tree.complete('/srv connect a')).toEqual([]);
    const feed = tree.registerFeed('command:srv', () => [
      {
        name: 'connect',
        help: 'Connects',
        values: [
          { name: 'alpha', help: 'stdio' },
          { name: 'beta', help: 'http' },
        ],
      },
    ]);
    expect(tree.complete('/srv c').map((c) => c.insert)).toEqual(['/srv connect ']);
    expect(tree.complete('/srv connect a').map((c) => c.insert)).toEqual(['/srv connect alpha ']);
    expect(tree.list().find((v) => v.path.join(' ') === 'srv connect')).toMatchObject({ runnable: true, takesArgument: true });
    feed.dispose();
    expect(tree.complete('/srv connect a')).toEqual([]);
  });
});

describe('plugin command groups', () => {
  test('a command under a word no one defined makes a group node that goes with its last command', async () => {
    const tree = new CommandTree();
    const a = tree.registerCommand({ path: ['usage', 'today'], help: 'Usage today', source: 'plugin:metrics', handler: () => 'today: 3' });
    const b = tree.registerCommand({ path: ['usage', 'week'], help: 'Usage this week', source: 'plugin:metrics', handler: () => 'week: 9' });
    expect(await tree.run('/usage today', ctx)).toEqual({ kind: 'ok', text: 'today: 3' });
    expect((await tree.run('/usage', ctx)).text).toContain('/usage week');
    expect(tree.complete('/usage ').map((c) => c.label)).toEqual(['today', 'week']);
    a.dispose();
    expect(await tree.run('/usage week', ctx)).toEqual({ kind: 'ok', text: 'week: 9' });
    b.dispose();
    expect(await tree.run('/usage', ctx)).toEqual({ kind: 'error', text: UNKNOWN_COMMAND });
    expect(tree.list().some((v) => v.path[0] === 'usage')).toBe(false);
  });
});
