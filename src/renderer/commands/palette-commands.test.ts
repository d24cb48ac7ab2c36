import { expect, test } from 'vitest';
import type { CommandView } from '../../shared/commands/index.ts';
import { paletteCommands, shortcutLabel } from './palette-commands.ts';

const view = (path: string, source = 'builtin', runnable = true): CommandView => ({
  path: path.split(' '),
  help: path,
  source,
  runnable,
  takesArgument: false,
});

test('the palette lists each command once, without the arguments a feed offers or groups that do nothing by themselves', () => {
  const listed = paletteCommands([
    view('new'),
    view('thinking'),
    view('thinking off', 'feed:thinking-levels'),
    view('set'),
    view('set plugin', 'builtin', false),
    view('set plugin on'),
    view('set plugin on example', 'feed:plugins'),
    view('budget', 'plugin:budget'),
    view('budget', 'plugin:budget'),
  ]);
  expect(listed.map((c) => c.path.join(' '))).toEqual(['new', 'thinking', 'set', 'set plugin on', 'budget']);
});

test('a shortcut is written for people, as the platform writes it', () => {
  expect(shortcutLabel('mod+shift+t')).toBe('Ctrl+Shift+T');
  expect(shortcutLabel('mod+,')).toBe('Ctrl+,');
  expect(shortcutLabel('mod+n', true)).toBe('⌘N');
});
