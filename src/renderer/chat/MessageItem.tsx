import { memo, useState } from 'react';
import { SiblingSwitcher, type SiblingVersion } from '../branches/index.ts';
import type { AssistantMessage } from '../../shared/sessions/index.ts';
import { CopyButton, Icon } from '../ui/index.ts';
import { ErrorText } from './ErrorText.tsx';
import { Markdown } from './Markdown.tsx';
import { ReplySources } from './ReplySources.tsx';
import { Thinking } from './Thinking.tsx';
import './message.css';
import { ToolCard } from './ToolCard.tsx';
import { storedImageHashes, UserContent } from './UserContent.tsx';
import type { TranscriptItem } from './transcript-model.ts';
import { useAccountName } from './use-account-name.ts';

export interface MessageActions {
  onSwitchSibling(entryId: string, siblingId: string): void;
  /** `images`: the hashes of the stored images the edited message carried; the new version keeps them. */
  onEdit(entryId: string, parentId: string | null, text: string, images: string[]): void;
  onRegenerate(entryId: string): void;
  /** False while a run streams: edits and regenerations wait for it. */
  canRun: boolean;
}

interface Props {
  item: TranscriptItem;
  siblings?: { ids: string[]; index: number; versions?: SiblingVersion[] | undefined };
  actions: MessageActions;
}

function EditBox({ initial, onSave, onCancel }: { initial: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  return (
    <div className="edit-box">
      <textarea
        autoFocus
        aria-label="Edit message"
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            if (text.trim()) onSave(text.trim());
          } else if (e.key === 'Escape') onCancel();
        }}
      />
      <div className="edit-actions">
        <span className="hint">Saving sends it as a new branch; the original stays one click away.</span>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary btn-small" disabled={!text.trim()} onClick={() => onSave(text.trim())}>
          Save &amp; send
        </button>
      </div>
    </div>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** When an entry was written, short for the line and whole for its tooltip; null when unreadable. */
function when(timestamp: string): { short: string; full: string } | null {
  const at = new Date(timestamp);
  return Number.isNaN(at.getTime()) ? null : { short: timeFormat.format(at), full: dayFormat.format(at) };
}

/** A reply's tokens and, when its start and end are both known, its speed (the wait for the first token included). */
function replyFigures(message: AssistantMessage, storedAt: string): string[] {
  const out = message.usage?.output;
  if (!out) return [];
  const figures = [`${out.toLocaleString()} tokens`];
  const seconds = message.timestamp !== undefined ? (Date.parse(storedAt) - message.timestamp) / 1000 : Number.NaN;
  if (Number.isFinite(seconds) && seconds > 0.05) figures.push(`${Math.round(out / seconds).toLocaleString()} tokens/s`);
  return figures;
}

/** Time (and a reply's tokens and speed), shown on hover or focus; the whole date in its tooltip. */
function MessageInfo({ timestamp, figures = [] }: { timestamp: string; figures?: string[] }) {
  const at = when(timestamp);
  const parts = [...(at ? [at.short] : []), ...figures];
  if (parts.length === 0) return null;
  return (
    <span className="msg-info" title={[at?.full, ...figures].filter(Boolean).join(' · ')} data-testid="message-info">
      {parts.join(' · ')}
    </span>
  );
}

export const MessageItem = memo(function MessageItem({ item, siblings, actions }: Props) {
  const [editing, setEditing] = useState(false);
  const accountName = useAccountName(item.kind === 'assistant' ? item.entry.accountId : undefined);
  // A finished reply names its model in its footer already.
  const modelShown = item.kind === 'assistant' && item.midTurn !== true && Boolean(item.message.model);
  const switcher = siblings ? (
    <SiblingSwitcher
      ids={siblings.ids}
      index={siblings.index}
      versions={siblings.versions}
      modelShown={modelShown}
      onSwitch={(id) => actions.onSwitchSibling(item.key, id)}
    />
  ) : null;

  if (item.kind === 'user') {
    return (
      <div className="msg msg-user" data-testid="message" data-role="user" data-entry-id={item.key}>
        {editing ? (
          <EditBox
            initial={item.text}
            onCancel={() => setEditing(false)}
            onSave={(text) => {
              setEditing(false);
              actions.onEdit(item.key, item.entry.parentId, text, storedImageHashes(item.message));
            }}
          />
        ) : (
          <div className="bubble">
            <UserContent message={item.message} text={item.text} />
          </div>
        )}
        {!editing && (
          <div className="msg-meta">
            {switcher}
            <MessageInfo timestamp={item.entry.timestamp} />
            <CopyButton text={item.text} label="Copy message" testId="copy-message" className="hover-action" />
            <button
              type="button"
              className="icon-btn hover-action"
              aria-label="Edit message"
              title="Edit (makes a new branch)"
              disabled={!actions.canRun}
              onClick={() => setEditing(true)}
            >
              <Icon name="pencil" size={14} />
            </button>
          </div>
        )}
      </div>
    );
  }
  if (item.kind === 'assistant' || item.kind === 'streaming') {
    const live = item.kind === 'streaming';
    const failed = item.kind === 'assistant' && item.message.stopReason === 'error';
    const aborted = item.kind === 'assistant' && item.message.stopReason === 'aborted';
    // Mid-turn, the model name and regenerate are left to the turn's final reply (a switcher still shows).
    const midTurn = item.kind === 'assistant' && item.midTurn === true;
    return (
      <div
        className={`msg msg-assistant${live ? ' is-streaming' : ''}`}
        data-testid="message"
        data-role="assistant"
        data-entry-id={live ? undefined : item.key}
        data-streaming={live || undefined}
      >
        <Thinking text={item.thinking} live={live && !item.text} />
        {item.text && <Markdown source={item.text} />}
        {live && !item.text && !item.thinking && item.tools.length === 0 && (
          <div className="typing" aria-label="Waiting for the reply">
            <span />
            <span />
            <span />
          </div>
        )}
        {item.tools.filter(Boolean).map((tool) => (
          <ToolCard key={tool.id} tool={tool} />
        ))}
        {failed && (
          <div className="msg-error" role="alert">
            <Icon name="alert" />
            <ErrorText text={item.message.errorMessage ?? 'The model did not answer.'} />
            <button type="button" className="btn btn-small" disabled={!actions.canRun} onClick={() => actions.onRegenerate(item.key)}>
              <Icon name="refresh" size={14} /> Retry
            </button>
          </div>
        )}
        {aborted && <div className="msg-stopped">Stopped — the partial reply is kept.</div>}
        {item.kind === 'assistant' && !midTurn && item.entry.sources && <ReplySources sources={item.entry.sources} />}
        {!live && (!midTurn || switcher || item.text) && (
          <div className={midTurn ? 'msg-meta is-mid' : 'msg-meta'}>
            {switcher}
            {!midTurn && item.message.model && <span className="model-name">{item.message.model}</span>}
            {!midTurn && item.message.model && accountName && (
              <span className="reply-account" title={`From the connection ${accountName}`} data-testid="reply-account">
                {accountName}
              </span>
            )}
            {!midTurn && <MessageInfo timestamp={item.entry.timestamp} figures={replyFigures(item.message, item.entry.timestamp)} />}
            {item.text && <CopyButton text={item.text} label="Copy message" testId="copy-message" className="hover-action" />}
            {!midTurn && (
              <>
                <button
                  type="button"
                  className="icon-btn hover-action"
                  aria-label="Regenerate reply"
                  title="Regenerate (makes a sibling)"
                  disabled={!actions.canRun}
                  onClick={() => actions.onRegenerate(item.key)}
                >
                  <Icon name="refresh" size={14} />
                </button>
              </>
            )}
          </div>
        )}
      </div>
    );
  }
  if (item.kind === 'tool-result') {
    return (
      <div className="msg msg-tool" data-testid="message" data-role="toolResult" data-entry-id={item.key}>
        <ToolCard
          tool={{
            id: item.message.toolCallId,
            name: item.message.toolName,
            args: undefined,
            status: item.message.isError ? 'error' : 'ok',
            output: item.message.content.map((c) => ('text' in c ? String(c.text) : '')).join('\n'),
          }}
        />
      </div>
    );
  }
  return (
    <div className={`msg-note note-${item.tone}`} data-entry-id={item.key}>
      {item.text}
    </div>
  );
});
