import { useCallback, useEffect, useRef, useState } from 'react';
import type { Completion } from '../../shared/commands/index.ts';
import { useApi } from '../api/index.ts';

export interface SlashCompletion {
  /** The text is a command line (starts with a slash, one line). */
  isCommand: boolean;
  items: Completion[];
  index: number;
  open: boolean;
  accept(item: Completion): void;
  /** Handles the composer's keys while completions show; true when the key was used. */
  onKeyDown(e: React.KeyboardEvent): boolean;
}

/**
 * Completion for slash commands as the user types: asks main for the completions of the text so far
 * (answers to older text are dropped). Tab accepts the highlighted one; arrows move; Esc hides the list.
 */
export function useSlashCompletion(text: string, setText: (text: string) => void, enabled: boolean): SlashCompletion {
  const api = useApi();
  // '//' escapes the slash: the line is sent as a message starting with '/'.
  const isCommand = enabled && text.startsWith('/') && !text.startsWith('//') && !text.includes('\n');
  // Completions and the text they answer: a list for older text is never shown or accepted.
  const [answer, setAnswer] = useState<{ text: string; items: Completion[] }>({ text: '', items: [] });
  const [index, setIndex] = useState(0);
  const [hidden, setHidden] = useState(false);
  const [moved, setMoved] = useState(false);
  const asked = useRef(0);
  /** Tab was pressed before the completions for the current text arrived: accept the first when they do. */
  const acceptWhenReady = useRef(false);
  const items = answer.text === text ? answer.items : [];

  useEffect(() => {
    if (!isCommand) {
      acceptWhenReady.current = false;
      return;
    }
    const ticket = ++asked.current;
    api.call('commands.complete', { input: text }).then(
      (list) => {
        if (ticket !== asked.current) return;
        setIndex(0);
        setMoved(false);
        if (acceptWhenReady.current && list[0]) {
          acceptWhenReady.current = false;
          setText(list[0].insert);
          return;
        }
        acceptWhenReady.current = false;
        setAnswer({ text, items: list });
      },
      () => ticket === asked.current && setAnswer({ text, items: [] }),
    );
  }, [api, isCommand, setText, text]);

  useEffect(() => setHidden(false), [text]);

  const open = isCommand && !hidden && items.length > 0;
  const accept = useCallback(
    (item: Completion) => {
      setText(item.insert);
      setMoved(false);
    },
    [setText],
  );

  const onKeyDown = (e: React.KeyboardEvent): boolean => {
    if (!open) {
      // Tab in a command line whose completions are still on their way: take the first one when it comes.
      if (e.key === 'Tab' && isCommand && !e.shiftKey && answer.text !== text) {
        e.preventDefault();
        acceptWhenReady.current = true;
        return true;
      }
      return false;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
      setMoved(true);
      return true;
    }
    if (e.key === 'Tab' || (e.key === 'Enter' && moved && !e.shiftKey)) {
      e.preventDefault();
      const item = items[index];
      if (item) accept(item);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setHidden(true);
      return true;
    }
    return false;
  };

  return { isCommand, items, index, open, accept, onKeyDown };
}
