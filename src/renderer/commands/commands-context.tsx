import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { CommandResult } from '../../shared/commands/index.ts';
import { useApi } from '../api/index.ts';
import { describeError } from '../ui/index.ts';

/** The last command's outcome, shown on the status line until the next one (or until dismissed). */
export interface StatusMessage {
  id: number;
  kind: CommandResult['kind'];
  text: string;
}

export interface CommandsApi {
  sessionId: string | null;
  /** Runs a slash command line; never throws (a failed call becomes an error result). */
  run(input: string): Promise<CommandResult>;
  message: StatusMessage | null;
  dismissMessage(): void;
  paletteOpen: boolean;
  setPaletteOpen(open: boolean): void;
  /** Puts text into the composer (the palette does, for commands that take an argument). */
  insert(text: string): void;
  /** The composer registers how to take inserted text. */
  attachComposer(take: (text: string) => void): () => void;
}

const CommandsContext = createContext<CommandsApi | null>(null);

/** Null outside a CommandsProvider: the composer then treats a slash as plain text. */
export function useCommands(): CommandsApi | null {
  return useContext(CommandsContext);
}

export function CommandsProvider({ sessionId, onOpenSession, children }: { sessionId: string | null; onOpenSession(id: string): void; children: ReactNode }) {
  const api = useApi();
  const [message, setMessage] = useState<StatusMessage | null>(null);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const nextId = useRef(1);
  const composer = useRef<((text: string) => void) | null>(null);
  const openSession = useRef(onOpenSession);
  openSession.current = onOpenSession;

  const run = useCallback(
    async (input: string): Promise<CommandResult> => {
      let result: CommandResult;
      try {
        const out = await api.call('commands.run', { input, sessionId });
        result = out.result;
        if (out.openSessionId) openSession.current(out.openSessionId);
      } catch (e) {
        result = { kind: 'error', text: describeError(e) };
      }
      if (result.kind === 'insert') {
        // Text for the message box (an MCP prompt): the user reads, edits and sends it.
        composer.current?.(result.text);
        setMessage({ id: nextId.current++, kind: 'ok', text: 'The prompt is in the message box: edit it or send it.' });
      } else setMessage({ id: nextId.current++, kind: result.kind, text: result.text });
      return result;
    },
    [api, sessionId],
  );

  const value = useMemo<CommandsApi>(
    () => ({
      sessionId,
      run,
      message,
      dismissMessage: () => setMessage(null),
      paletteOpen,
      setPaletteOpen,
      insert: (text) => composer.current?.(text),
      attachComposer: (take) => {
        composer.current = take;
        return () => {
          if (composer.current === take) composer.current = null;
        };
      },
    }),
    [message, paletteOpen, run, sessionId],
  );
  return <CommandsContext value={value}>{children}</CommandsContext>;
}
