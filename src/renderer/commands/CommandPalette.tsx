import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { CommandView } from '../../shared/commands/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import { useCommands } from './commands-context.tsx';
import './commands.css';
import { paletteCommands, SHORTCUT_TITLES, shortcutLabel } from './palette-commands.ts';

const NO_COMMANDS: CommandView[] = [];
const MAC = typeof navigator !== 'undefined' && /mac/i.test(navigator.platform);

/** One line of the palette: a window action with its shortcut, or a slash command. */
interface Entry {
  key: string;
  kind: 'action' | 'command';
  title: string;
  detail: string;
  shortcut?: string;
  /** A command that takes an argument: it goes into the message box. */
  argument?: boolean;
  choose(): void;
}

/**
 * The window's actions with their shortcuts, then the slash commands (each once: the arguments a feed offers
 * are left to the completion in the message box), filtered as the user types. An action runs at once; so does
 * a command that runs as it is; one that takes an argument goes into the composer to be finished there.
 * `shortcuts` are the window's own ('mod+n' → what it does): the palette lists those it has a title for.
 */
export function CommandPalette({ shortcuts = {} }: { shortcuts?: Readonly<Record<string, () => void>> }) {
  const api = useApi();
  const commands = useCommands();
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const open = commands?.paletteOpen ?? false;
  // Read each time the palette opens (feeds can add commands unannounced); commands.changed has it read again.
  const all = useQuery({ queryKey: serverKeys.commands, queryFn: () => api.call('commands.list', {}), enabled: open, staleTime: 0 }).data ?? NO_COMMANDS;

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setIndex(0);
    requestAnimationFrame(() => input.current?.focus());
  }, [open]);

  const close = () => commands?.setPaletteOpen(false);
  const entries: Entry[] = [
    ...Object.entries(SHORTCUT_TITLES)
      .filter(([keys]) => shortcuts[keys] !== undefined)
      .map(([keys, title]) => ({
        key: `action:${keys}`,
        kind: 'action' as const,
        title,
        detail: '',
        shortcut: shortcutLabel(keys, MAC),
        choose: () => {
          close();
          // After the palette has closed and handed the focus back, so the action's own focus (a new conversation's message box) stays.
          requestAnimationFrame(() => shortcuts[keys]?.());
        },
      })),
    ...paletteCommands(all).map((c) => {
      const line = `/${c.path.join(' ')}`;
      return {
        key: `command:${line}`,
        kind: 'command' as const,
        title: line,
        detail: c.help,
        choose: () => {
          close();
          if (!c.takesArgument) void commands?.run(line);
          else commands?.insert(`${line} `);
        },
        ...(c.takesArgument ? { argument: true } : {}),
      };
    }),
  ];
  const words = query.replace(/^\//, '').toLowerCase().split(/\s+/).filter(Boolean);
  // Typed with a slash, the query asks for commands only.
  const commandsOnly = query.trimStart().startsWith('/');
  const shown = entries.filter((e) => {
    if (commandsOnly && e.kind !== 'command') return false;
    const hay = `${e.title} ${e.detail}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });

  if (!commands || !open) return null;

  return (
    <Modal className="palette" backdropClassName="palette-backdrop" label="Command palette" testId="command-palette" onEscape={close} onBackdrop={close}>
      <div className="palette-search">
        <Icon name="keyboard" />
        <input
          ref={input}
          value={query}
          placeholder="Type an action or a command…"
          aria-label="Search commands"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[index] ? `palette-option-${index}` : undefined}
          data-testid="palette-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (shown.length) setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              shown[index]?.choose();
            }
          }}
        />
      </div>
      <div className="palette-list" id="palette-list" role="listbox" aria-label="Commands">
        {shown.length === 0 && <div className="palette-empty">No command matches.</div>}
        {shown.map((e, i) => (
          <button
            key={e.key}
            type="button"
            role="option"
            id={`palette-option-${i}`}
            tabIndex={-1}
            aria-selected={i === index}
            className={`palette-item${i === index ? ' is-active' : ''}`}
            data-testid="palette-item"
            data-kind={e.kind}
            onMouseEnter={() => setIndex(i)}
            onClick={() => e.choose()}
          >
            {e.kind === 'action' ? (
              <span className="palette-title">{e.title}</span>
            ) : (
              <>
                <span className="palette-path">{e.title}</span>
                {e.argument && <span className="palette-arg">…</span>}
                <span className="palette-help">{e.detail}</span>
              </>
            )}
            {e.shortcut && <kbd className="palette-kbd">{e.shortcut}</kbd>}
          </button>
        ))}
      </div>
    </Modal>
  );
}
