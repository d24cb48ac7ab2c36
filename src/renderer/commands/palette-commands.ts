import type { CommandView } from '../../shared/commands/index.ts';

/**
 * The commands the palette lists: each command once, as the user would pick it. A feed's items (every
 * model, plugin or setting as an argument) are arguments, not commands: they are left to the completion in
 * the message box. So are group nodes that do nothing by themselves (`/set plugin`): their commands are listed.
 */
export function paletteCommands(all: readonly CommandView[]): CommandView[] {
  const seen = new Set<string>();
  const out: CommandView[] = [];
  for (const c of all) {
    if (c.source.startsWith('feed:') || !c.runnable) continue;
    const line = c.path.join(' ');
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(c);
  }
  return out;
}

/** A shortcut as 'mod+shift+t' written for people: Ctrl+Shift+T (⌘⇧T on a Mac). */
export function shortcutLabel(keys: string, mac = false): string {
  const parts = keys.split('+').map((k) => {
    if (k === 'mod') return mac ? '⌘' : 'Ctrl';
    if (k === 'shift') return mac ? '⇧' : 'Shift';
    return k.length === 1 ? k.toUpperCase() : k;
  });
  return mac ? parts.join('') : parts.join('+');
}

/** What each of the window's shortcuts does, as the palette lists it; a shortcut the window does not have is not listed. */
export const SHORTCUT_TITLES: Readonly<Record<string, string>> = {
  'mod+n': 'New conversation',
  'mod+k': 'Search conversations',
  'mod+b': 'Show or hide the sidebar',
  'mod+shift+t': 'Show or hide the conversation tree',
  'mod+shift+b': 'Show or hide the panels',
  'mod+,': 'Open or close Settings',
  'mod+shift+l': 'Switch between light and dark',
  'mod+l': 'Go to the message box',
  'mod+shift+m': 'Choose the model',
  'mod+shift+e': 'Show the evals: suites of your tasks run with amber eval',
};
