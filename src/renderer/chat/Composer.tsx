import { forwardRef, type ReactNode, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { CommandCompletions, useCommands, useSlashCompletion } from '../commands/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { expandResourceMentions, type ResourceSource } from './expand-resource-mentions.ts';
import { ResourceAttach, resourceNote } from './ResourceAttach.tsx';

interface Props {
  running: boolean;
  disabled: boolean;
  disabledReason?: string;
  onSend(text: string): Promise<boolean>;
  onSteer(text: string): Promise<boolean>;
  onFollowUp(text: string): Promise<boolean>;
  onAbort(): void;
  /** Controls shown under the message box, left of Send (the model and thinking level). */
  toolbar?: ReactNode;
}

export interface ComposerHandle {
  /** Focuses the message box; false when it cannot take the focus yet (not mounted, or disabled). */
  focus(): boolean;
}

/** The message box. While a run streams, Enter steers it and Alt+Enter queues a follow-up; a /command runs at once. */
export const Composer = forwardRef<ComposerHandle, Props>(function Composer(
  { running, disabled, disabledReason, onSend, onSteer, onFollowUp, onAbort, toolbar },
  ref,
) {
  const [text, setText] = useState('');
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

  const submit = async (mode: 'send' | 'steer' | 'followUp') => {
    const value = text.trim();
    if (!value || disabled) return;
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
    const ok = await (mode === 'send' ? onSend(message) : mode === 'steer' ? onSteer(message) : onFollowUp(message));
    if (ok) setText('');
  };

  return (
    <div className="composer">
      <div className="slash-anchor">
        <CommandCompletions completion={slash} />
      </div>
      <div className={`composer-box${disabled ? ' is-disabled' : ''}`}>
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
            <ResourceAttach
              disabled={disabled}
              onInsert={(inserted) => {
                setText((t) => (t.trim() ? `${t.trimEnd()}\n\n${inserted}` : inserted));
                area.current?.focus();
              }}
            />
            {running ? (
              <>
                <button type="button" className="btn btn-ghost btn-small" disabled={!text.trim()} onClick={() => void submit('followUp')} title="Alt+Enter">
                  Queue follow-up
                </button>
                <button type="button" className="btn btn-small" disabled={!text.trim()} onClick={() => void submit('steer')} title="Enter">
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
                disabled={!text.trim() || disabled}
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
