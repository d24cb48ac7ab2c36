import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Completion } from '../../shared/commands/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

const NONE: Completion[] = [];

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
  // The completions of the text as it is now, keyed by it: a list for older text is never shown or accepted.
  // Read again each time (what completes can change: servers, sessions), and by commands.changed.
  const query = useQuery({
    queryKey: serverKeys.completions(text),
    queryFn: () => api.call('commands.complete', { input: text }),
    enabled: isCommand,
    staleTime: 0,
  });
  const answered = isCommand ? query.data : undefined;
  /** The answer for this text is still on its way (a refused one counts as an empty answer). */
  const waiting = isCommand && query.isPending;
  const items = answered ?? NONE;
  const [index, setIndex] = useState(0);
  const [hidden, setHidden] = useState(false);
  const [moved, setMoved] = useState(false);
  /** Tab was pressed before the completions for the current text arrived: accept the first when they do. */
  const acceptWhenReady = useRef(false);

  useEffect(() => {
    if (!isCommand) acceptWhenReady.current = false;
  }, [isCommand]);
  useEffect(() => {
    if (!answered) return;
    setIndex(0);
    setMoved(false);
    const first = answered[0];
    const take = acceptWhenReady.current && first;
    acceptWhenReady.current = false;
    if (take) setText(first.insert);
  }, [answered, setText]);

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
      if (e.key === 'Tab' && !e.shiftKey && waiting) {
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
