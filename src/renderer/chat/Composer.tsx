import { forwardRef, type ReactNode, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { type Attachment, imageLimitsFor, MAX_ATTACHMENTS } from '../../shared/attachments/index.ts';
import { CommandCompletions, useCommands, useSlashCompletion } from '../commands/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { expandResourceMentions, type ResourceSource } from './expand-resource-mentions.ts';
import { ResourceAttach, resourceNote } from './ResourceAttach.tsx';
import { AttachButton, AttachmentChips } from './AttachmentChips.tsx';
import { type PendingAttachment, readAttachment, toAttachment } from './read-attachment.ts';

/** The window scales images to the tighter provider's limits, so an image fits whichever model it goes to; main checks it again. */
const IMAGE_LIMITS = imageLimitsFor(null);
/** What one message's attachments may add up to as sent (the headless shell's WebSocket carries at most 4 MB a frame). */
const MAX_MESSAGE_ATTACHMENT_BYTES = 3.5 * 1024 * 1024;
/** An attachment's size as sent: an image's data URL, a text file's bytes. */
const sentSize = (a: PendingAttachment) => (a.kind === 'image' ? a.dataUrl.length : a.bytes);

interface Props {
  running: boolean;
  disabled: boolean;
  disabledReason?: string;
  onSend(text: string, attachments: Attachment[]): Promise<boolean>;
  /** A message for the streaming run, with the box's attachments as a sent message carries them. */
  onSteer(text: string, attachments: Attachment[]): Promise<boolean>;
  onFollowUp(text: string, attachments: Attachment[]): Promise<boolean>;
  onAbort(): void;
  /** Controls shown under the message box, left of Send (the model and thinking level). */
  toolbar?: ReactNode;
  /** The chosen model and whether it reads images (null: the catalog does not say), for the notice before sending. */
  imageSupport?: { modelName: string; accepted: boolean | null };
}

export interface ComposerHandle {
  /** Focuses the message box; false when it cannot take the focus yet (not mounted, or disabled). */
  focus(): boolean;
}

/** The message box. While a run streams, Enter steers it and Alt+Enter queues a follow-up; a /command runs at once. */
export const Composer = forwardRef<ComposerHandle, Props>(function Composer(
  { running, disabled, disabledReason, onSend, onSteer, onFollowUp, onAbort, toolbar, imageSupport },
  ref,
) {
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<PendingAttachment[]>([]);
  const [dropping, setDropping] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(
    ref,
    () => ({
      focus: () => {
        area.current?.focus();
        return area.current !== null && document.activeElement === area.current;
      },
    }),
    [],
  );
  // Slash commands: completed as they are typed, run on Enter (their result goes to the status line) — at
  // once, even while a reply streams: a command line is never steering text.
  const commands = useCommands();
  const slash = useSlashCompletion(text, setText, commands !== null);
  useEffect(
    () =>
      commands?.attachComposer((inserted) => {
        setText(inserted);
        area.current?.focus();
      }),
    [commands],
  );

  const api = useApi();
  const toasts = useToasts();
  const resources: ResourceSource = {
    list: async () => (await api.call('mcp.resources', {})).resources,
    read: async (server, uri) => resourceNote(await api.call('mcp.readResource', { server, uri })),
  };

  // Files pasted, dropped or picked: read here (nothing but their contents goes to main), refused with a sentence.
  // The list as last set, so that files read one after another each see those added before them.
  const current = useRef<PendingAttachment[]>([]);
  current.current = attachments;
  const addFiles = async (files: readonly File[]) => {
    for (const file of files) {
      try {
        const read = await readAttachment(file, IMAGE_LIMITS);
        const list = current.current;
        if (list.length >= MAX_ATTACHMENTS) throw new Error(`A message carries at most ${MAX_ATTACHMENTS} attachments.`);
        if ([...list, read].reduce((n, a) => n + sentSize(a), 0) > MAX_MESSAGE_ATTACHMENT_BYTES) {
          throw new Error(`${read.name} would take this message's attachments over 3.5 MB; send it in another message.`);
        }
        current.current = [...list, read];
        setAttachments(current.current);
      } catch (e) {
        toasts.error('Could not attach the file', e);
      }
    }
  };
  const imageCount = attachments.filter((a) => a.kind === 'image').length;
  const imagesRefused = imageCount > 0 && imageSupport?.accepted === false;
  const canSubmit = (text.trim() !== '' || attachments.length > 0) && !imagesRefused;

  // Steering and follow-ups carry the box's attachments too: nothing attached is left behind by a message that goes.
  const deliver = (mode: 'send' | 'steer' | 'followUp', message: string, sent: Attachment[]) =>
    mode === 'send' ? onSend(message, sent) : mode === 'steer' ? onSteer(message, sent) : onFollowUp(message, sent);
  const submit = async (mode: 'send' | 'steer' | 'followUp') => {
    const value = text.trim();
    if (disabled) return;
    if (!value && attachments.length > 0 && !imagesRefused) {
      const sent = attachments;
      if (await deliver(mode, '', sent.map(toAttachment))) setAttachments((list) => list.filter((a) => !sent.includes(a)));
      return;
    }
    if (!value) return;
    if (slash.isCommand && commands) {
      // An inserted result (an MCP prompt) has replaced the text already.
      const { kind } = await commands.run(value);
      if (kind === 'ok' || kind === 'help') setText('');
      return;
    }
    let message = commands && value.startsWith('//') ? value.slice(1) : value;
    try {
      // `@server:uri` naming a listed MCP resource brings its text along.
      message = await expandResourceMentions(message, resources);
    } catch (e) {
      toasts.error('Could not read the MCP resource the message names', e);
      return;
    }
    if (imagesRefused) return;
    const sent = attachments;
    const ok = await deliver(mode, message, sent.map(toAttachment));
    if (ok) {
      setText('');
      if (sent.length > 0) setAttachments((list) => list.filter((a) => !sent.includes(a)));
    }
  };

  return (
    <div className="composer">
      <div className="slash-anchor">
        <CommandCompletions completion={slash} />
      </div>
      <div
        className={`composer-box${disabled ? ' is-disabled' : ''}${dropping ? ' is-dropping' : ''}`}
        onDragOver={(e) => {
          if (disabled || !e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={(e) => {
          setDropping(false);
          if (disabled || e.dataTransfer.files.length === 0) return;
          e.preventDefault();
          void addFiles([...e.dataTransfer.files]);
        }}
      >
        <AttachmentChips items={attachments} onRemove={(id) => setAttachments((list) => list.filter((a) => a.id !== id))} />
        {imagesRefused && (
          <div className="attachment-notice" role="alert" data-testid="images-refused">
            {imageSupport?.modelName} does not accept images: remove {imageCount === 1 ? 'the image' : `the ${imageCount} images`} or choose a model that reads
            images.
          </div>
        )}
        <textarea
          ref={area}
          data-testid="composer"
          aria-label="Message"
          placeholder={
            disabled
              ? (disabledReason ?? '')
              : running
                ? 'Steer the reply (Enter) or queue a follow-up (Alt+Enter)…'
                : 'Message Amber… (Enter to send, Shift+Enter for a new line)'
          }
          value={text}
          disabled={disabled}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            const files = [...e.clipboardData.files];
            if (files.length === 0 || disabled) return;
            e.preventDefault();
            void addFiles(files);
          }}
          onKeyDown={(e) => {
            if (slash.onKeyDown(e)) return;
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit(running ? (e.altKey ? 'followUp' : 'steer') : 'send');
            } else if (e.key === 'Escape' && running) {
              e.preventDefault();
              onAbort();
            }
          }}
        />
        <div className="composer-row">
          <div className="composer-toolbar">{toolbar}</div>
          <div className="composer-actions">
            <AttachButton disabled={disabled} onFiles={(files) => void addFiles(files)} />
            <ResourceAttach
              disabled={disabled}
              onInsert={(inserted) => {
                setText((t) => (t.trim() ? `${t.trimEnd()}\n\n${inserted}` : inserted));
                area.current?.focus();
              }}
            />
            {running ? (
              <>
                <button type="button" className="btn btn-ghost btn-small" disabled={!canSubmit} onClick={() => void submit('followUp')} title="Alt+Enter">
                  Queue follow-up
                </button>
                <button type="button" className="btn btn-small" disabled={!canSubmit} onClick={() => void submit('steer')} title="Enter">
                  Steer
                </button>
                <button type="button" className="btn btn-danger btn-small" data-testid="abort" onClick={onAbort} title="Esc">
                  <Icon name="stop" size={14} /> Stop
                </button>
              </>
            ) : (
              <button
                type="button"
                className="btn btn-primary send-btn"
                data-testid="send"
                aria-label="Send"
                disabled={!canSubmit || disabled}
                title={imagesRefused ? `${imageSupport?.modelName} does not accept images` : undefined}
                onClick={() => void submit('send')}
              >
                <Icon name="send" />
              </button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
});
