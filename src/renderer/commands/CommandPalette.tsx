import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CommandView } from '../../shared/commands/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import { useCommands } from './commands-context.tsx';
import './commands.css';

function sourceLabel(source: string): string {
  if (source === 'builtin') return '';
  if (source.startsWith('plugin:')) return source.slice(7);
  if (source.startsWith('feed:')) return source.slice(5);
  return source;
}

const NO_COMMANDS: CommandView[] = [];

/**
 * Every command of the tree, filtered as the user types. A command that runs as it is runs at once; one
 * that takes an argument goes into the composer to be finished there.
 */
export function CommandPalette() {
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

  const shown = useMemo(() => {
    const words = query.replace(/^\//, '').toLowerCase().split(/\s+/).filter(Boolean);
    return all.filter((c) => {
      const hay = `${c.path.join(' ')} ${c.help}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  }, [all, query]);

  if (!commands || !open) return null;
  const close = () => commands.setPaletteOpen(false);
  const choose = (c: CommandView) => {
    close();
    const line = `/${c.path.join(' ')}`;
    if (c.runnable && !c.takesArgument) void commands.run(line);
    else commands.insert(`${line} `);
  };

  return (
    <Modal className="palette" backdropClassName="palette-backdrop" label="Command palette" testId="command-palette" onEscape={close} onBackdrop={close}>
      <div className="palette-search">
        <Icon name="keyboard" />
        <input
          ref={input}
          value={query}
          placeholder="Type a command…"
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
              const c = shown[index];
              if (c) choose(c);
            }
          }}
        />
      </div>
      <div className="palette-list" id="palette-list" role="listbox" aria-label="Commands">
        {shown.length === 0 && <div className="palette-empty">No command matches.</div>}
        {shown.map((c, i) => (
          <button
            key={`${c.source}:${c.path.join(' ')}`}
            type="button"
            role="option"
            id={`palette-option-${i}`}
            tabIndex={-1}
            aria-selected={i === index}
            className={`palette-item${i === index ? ' is-active' : ''}`}
            data-testid="palette-item"
            onMouseEnter={() => setIndex(i)}
            onClick={() => choose(c)}
          >
            <span className="palette-path">/{c.path.join(' ')}</span>
            {c.takesArgument && <span className="palette-arg">…</span>}
            <span className="palette-help">{c.help}</span>
            {sourceLabel(c.source) && <span className="chip">{sourceLabel(c.source)}</span>}
          </button>
        ))}
      </div>
    </Modal>
  );
}
