import { useCallback, useMemo, useRef } from 'react';
import type { Attachment } from '../../shared/attachments/index.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { ModelPicker, ThinkingPicker } from '../models/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { Composer, type ComposerHandle } from './Composer.tsx';
import { PlanStrip } from './PlanStrip.tsx';
import { ErrorText } from './ErrorText.tsx';
import type { MessageActions } from './MessageItem.tsx';
import { Transcript } from './Transcript.tsx';
import { type TranscriptItem, toTranscriptItems } from './transcript-model.ts';
import { useImageSupport } from './use-image-support.ts';
import { useSiblings } from './use-siblings.ts';
import { useTranscript } from './use-transcript.ts';

interface Props {
  session: SessionSummary | null;
  canSend: boolean;
  composerRef: React.RefObject<ComposerHandle | null>;
  onNewChat(): void;
}

/** A failed reply already shows its error (with Retry) in the transcript; the banner is for other failures. */
function endsInFailedReply(items: TranscriptItem[]): boolean {
  const last = items.at(-1);
  return last?.kind === 'assistant' && last.message.stopReason === 'error';
}

export function ChatView({ session, canSend, composerRef, onNewChat }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const sessionId = session?.id ?? null;
  const { state, loadOlder, reload } = useTranscript(sessionId);
  const siblings = useSiblings(sessionId, state.entries);
  const sending = useRef(false);
  const imageSupport = useImageSupport(sessionId);

  // Settled items are rebuilt only when entries or tool states change; a streaming delta touches the last row only.
  // While the run goes on (a tool running, the next reply on its way), a reply that called tools is not yet
  // the turn's last: it shows no finished footer.
  const continuing = state.streaming !== null || state.running;
  const settled = useMemo<TranscriptItem[]>(() => toTranscriptItems(state.entries, state.liveTools, continuing), [state.entries, state.liveTools, continuing]);
  const items = useMemo<TranscriptItem[]>(
    () => (state.streaming ? [...settled, { kind: 'streaming', key: 'streaming', ...state.streaming }] : settled),
    [settled, state.streaming],
  );

  const guard = useCallback(
    async (title: string, run: () => Promise<unknown>): Promise<boolean> => {
      try {
        await run();
        return true;
      } catch (e) {
        toasts.error(title, e);
        return false;
      }
    },
    [toasts],
  );

  const actions = useMemo<MessageActions>(
    () => ({
      canRun: !state.running,
      onSwitchSibling: (_entryId, siblingId) => {
        if (!sessionId) return;
        void guard('Could not switch to that version', () =>
          api.call('sessions.branch', { sessionId, entryId: siblingId, follow: 'newest' }).then(() => reload()),
        );
      },
      onEdit: (_entryId, parentId, text, images) => {
        if (!sessionId) return;
        const attachments = images.map((hash) => ({ kind: 'stored' as const, hash }));
        void guard('Could not send the edited message', () =>
          api.call('chat.send', { sessionId, text, parentId, ...(attachments.length > 0 ? { attachments } : {}) }),
        );
      },
      onRegenerate: (entryId) => {
        if (!sessionId) return;
        void guard('Could not regenerate the reply', () => api.call('chat.regenerate', { sessionId, entryId }));
      },
    }),
    [api, guard, reload, sessionId, state.running],
  );

  if (!session) {
    return (
      <section className="chat chat-empty">
        <div className="empty-state">
          <div className="empty-logo">
            <Icon name="chat" size={28} />
          </div>
          <h2>No conversation open</h2>
          <p>Pick one on the left, or start a new one.</p>
          <button type="button" className="btn btn-primary" onClick={onNewChat}>
            <Icon name="plus" /> New chat
          </button>
          <p className="hint">
            <kbd>Ctrl</kbd> <kbd>N</kbd> new chat · <kbd>Ctrl</kbd> <kbd>K</kbd> search · <kbd>Ctrl</kbd> <kbd>Shift</kbd> <kbd>T</kbd> tree
          </p>
        </div>
      </section>
    );
  }

  const send = (text: string, attachments: Attachment[]) =>
    sending.current
      ? Promise.resolve(false)
      : ((sending.current = true),
        guard('Could not send the message', () =>
          api.call('chat.send', { sessionId: session.id, text, ...(attachments.length > 0 ? { attachments } : {}) }),
        ).finally(() => (sending.current = false)));

  return (
    <section className="chat" data-testid="chat" data-leaf-id={state.leafId ?? ''}>
      {state.loading && state.entries.length === 0 ? (
        <div className="transcript transcript-loading">
          <div className="skeleton" />
          <div className="skeleton short" />
          <div className="skeleton" />
        </div>
      ) : state.entries.length === 0 && !state.streaming ? (
        <div className="transcript transcript-empty">
          <div className="empty-state">
            <h2>{session.title || 'New chat'}</h2>
            <p>
              {canSend
                ? 'Ask anything. Replies stream in here, tools show as cards, and every edit keeps the original as a branch.'
                : 'This conversation is empty.'}
            </p>
          </div>
        </div>
      ) : (
        <Transcript
          items={items}
          siblings={siblings}
          hasOlder={state.before !== null}
          loadingOlder={state.loadingOlder}
          onLoadOlder={() => void loadOlder()}
          actions={actions}
          generation={state.generation}
          running={state.running}
        />
      )}
      {state.changed.length > 0 && (
        <div className="run-error" role="alert" data-testid="integrity-notice">
          <Icon name="alert" />
          <span>
            This conversation was changed outside Amber (
            {state.changed.length === 1 ? '1 message no longer matches' : `${state.changed.length} messages no longer match`} what Amber wrote), so it is
            read-only. Start a new chat to continue.
          </span>
        </div>
      )}
      {state.lastError && !state.running && !endsInFailedReply(items) && (
        <div className="run-error" role="alert" data-testid="run-error">
          <Icon name="alert" />
          <ErrorText text={state.lastError} />
        </div>
      )}
      {state.checking && (
        <div className="checking-done" role="status" data-testid="checking-done">
          <span className="spinner" aria-hidden="true" />
          Checking whether the task is done…
        </div>
      )}
      <PlanStrip sessionId={session.id} />
      <Composer
        ref={composerRef}
        running={state.running}
        disabled={!canSend || state.changed.length > 0}
        disabledReason={
          state.changed.length > 0
            ? 'This conversation is read-only: it was changed outside Amber.'
            : 'Set up a model to send messages (the button at the top right).'
        }
        onSend={send}
        imageSupport={imageSupport}
        onSteer={(text, attachments) =>
          guard('Could not steer the reply', () => api.call('chat.steer', { sessionId: session.id, text, ...(attachments.length > 0 ? { attachments } : {}) }))
        }
        onFollowUp={(text, attachments) =>
          guard('Could not queue the follow-up', () =>
            api.call('chat.followUp', { sessionId: session.id, text, ...(attachments.length > 0 ? { attachments } : {}) }),
          )
        }
        onAbort={() => void guard('Could not stop the reply', () => api.call('chat.abort', { sessionId: session.id }))}
        toolbar={
          <>
            <ModelPicker key={`m:${session.id}`} sessionId={session.id} running={state.running} />
            <ThinkingPicker key={`t:${session.id}`} sessionId={session.id} running={state.running} />
          </>
        }
      />
    </section>
  );
}
