import { useCallback, useEffect, useState } from 'react';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { sessionTitle } from '../sessions/index.ts';
import { useToasts } from '../ui/index.ts';

export interface ActiveSession {
  activeId: string | null;
  /** The open session's summary: from the list, or read on its own while a search hides it. */
  active: SessionSummary | null;
  select(id: string): void;
  /** Starts a conversation and opens it; resolves once it is open (or the failure is shown). */
  /** Starts a conversation; in a project, it works in the project's folder with its defaults. */
  newChat(projectId?: string): Promise<void>;
  rename(id: string, title: string): void;
  /** Deletes a conversation, with an Undo toast that brings it back. */
  remove(id: string): void;
}

/**
 * Which conversation is open (at first `initialId`, the one left open last time), and the actions on
 * conversations that change it: select, new, rename, delete (with undo). `sessions` is the listed
 * conversations; `onCreated` runs when a new one opens.
 */
export function useActiveSession(initialId: string | null, sessions: readonly SessionSummary[], onCreated: () => void): ActiveSession {
  const api = useApi();
  const toasts = useToasts();
  const [activeId, setActiveId] = useState<string | null>(initialId);

  // The open session stays open while a search hides it from the list.
  const [fetched, setFetched] = useState<SessionSummary | null>(null);
  const listed = sessions.find((s) => s.id === activeId);
  useEffect(() => {
    if (!activeId || listed) return;
    let live = true;
    api.call('sessions.get', { sessionId: activeId }).then(
      (s) => live && setFetched(s),
      () => live && setActiveId(null),
    );
    return () => {
      live = false;
    };
  }, [api, activeId, listed]);
  const active = listed ?? (fetched?.id === activeId ? fetched : null);

  const select = useCallback(
    (id: string) => {
      setActiveId(id);
      api.call('sessions.open', { sessionId: id }).catch((e: unknown) => toasts.error('Could not open the conversation', e));
    },
    [api, toasts],
  );

  const newChat = useCallback(
    async (projectId?: string) => {
      try {
        const s = await api.call('sessions.create', projectId ? { projectId } : {});
        setActiveId(s.id);
        onCreated();
      } catch (e) {
        toasts.error('Could not start a new chat', e);
      }
    },
    [api, onCreated, toasts],
  );

  const rename = useCallback(
    (id: string, title: string) => {
      api.call('sessions.rename', { sessionId: id, title }).catch((e: unknown) => toasts.error('Could not rename the conversation', e));
    },
    [api, toasts],
  );

  const remove = useCallback(
    async (id: string) => {
      const s = sessions.find((x) => x.id === id);
      try {
        await api.call('sessions.delete', { sessionId: id });
      } catch (e) {
        toasts.error('Could not delete the conversation', e);
        return;
      }
      // Deleting the open conversation opens its neighbour (the next one down, else the one above).
      if (id === activeId) {
        const i = sessions.findIndex((x) => x.id === id);
        const next = sessions[i + 1] ?? sessions[i - 1];
        if (next && i >= 0) select(next.id);
        else setActiveId(null);
      }
      toasts.push({
        kind: 'info',
        title: `Deleted “${s ? sessionTitle(s) : 'conversation'}”`,
        timeoutMs: 8000,
        action: {
          label: 'Undo',
          run: () => {
            api.call('sessions.restore', { sessionId: id }).then(
              () => select(id),
              (e: unknown) => toasts.error('Could not bring it back', e),
            );
          },
        },
      });
    },
    [api, activeId, select, sessions, toasts],
  );
  const removeNow = useCallback((id: string) => void remove(id), [remove]);

  return { activeId, active, select, newChat, rename, remove: removeNow };
}
