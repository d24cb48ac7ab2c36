import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

type Texts = { global: string; conversation: string };
const EMPTY: Texts = { global: '', conversation: '' };

/**
 * The user's own instructions, added to the system message of every request: for every conversation, and
 * for the open one (the same text /system sets).
 */
export function InstructionsSection({ sessionId }: { sessionId: string | null }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // Read each time the section shows: /system changes them without an event.
  const query = useQuery({ queryKey: serverKeys.instructions(sessionId), queryFn: () => api.call('instructions.get', { sessionId }), staleTime: 0 });
  const saved = query.data ?? null;
  // What the user typed, for this conversation; until then the text as read.
  const [edit, setEdit] = useState<{ sessionId: string | null; text: Texts } | null>(null);
  const draft: Texts = edit?.sessionId === sessionId ? edit.text : (saved ?? EMPTY);
  const setDraft = (text: Texts) => setEdit({ sessionId, text });
  const globalId = useId();
  const conversationId = useId();

  const { error } = query;
  useEffect(() => {
    if (error) toasts.error('Could not read your instructions', error);
  }, [error, toasts]);

  const save = async (scope: 'global' | 'conversation') => {
    try {
      const v = await api.call('instructions.set', { sessionId: scope === 'global' ? null : sessionId, text: draft[scope] });
      queries.setQueryData(serverKeys.instructions(sessionId), v);
      toasts.push({
        kind: 'info',
        title: scope === 'global' ? 'Instructions saved for every conversation' : 'Instructions saved for this conversation',
        timeoutMs: 2500,
      });
    } catch (e) {
      toasts.error('Could not save your instructions', e);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-instructions" data-testid="instructions-section">
      <h2 id="settings-instructions">Your instructions</h2>
      <p className="muted settings-lead">
        Added to what the model is told at every request. “View prompt” at the top of a conversation shows exactly what was sent.
      </p>
      <label className="field" htmlFor={globalId}>
        <span>For every conversation</span>
      </label>
      <textarea
        id={globalId}
        className="textarea"
        rows={4}
        value={draft.global}
        placeholder="For example: answer in British English; prefer small commits."
        onChange={(e) => setDraft({ ...draft, global: e.target.value })}
        data-testid="instructions-global"
      />
      <div className="settings-row">
        <button
          type="button"
          className="btn btn-small"
          disabled={!saved || saved.global === draft.global}
          onClick={() => void save('global')}
          data-testid="instructions-global-save"
        >
          Save
        </button>
      </div>
      {sessionId && (
        <>
          <label className="field" htmlFor={conversationId}>
            <span>For this conversation</span>
          </label>
          <textarea
            id={conversationId}
            className="textarea"
            rows={3}
            value={draft.conversation}
            placeholder="Only this conversation (also /system in the message box)."
            onChange={(e) => setDraft({ ...draft, conversation: e.target.value })}
            data-testid="instructions-conversation"
          />
          <div className="settings-row">
            <button
              type="button"
              className="btn btn-small"
              disabled={!saved || saved.conversation === draft.conversation}
              onClick={() => void save('conversation')}
            >
              Save
            </button>
          </div>
        </>
      )}
    </section>
  );
}
