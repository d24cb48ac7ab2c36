import { useEffect, useRef, useState } from 'react';
import './approval-dialog.css';
import type { ApprovalAnswer, ApprovalQuestion, ApprovalScope } from '../../shared/agent/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import { ChangePreview } from './ChangePreview.tsx';
import { changeView } from './change-preview.ts';
import { useApprovalQueue } from './use-approval-queue.ts';

/** The key that allows once: never Enter, so a keystroke meant for the composer cannot approve a call. */
const ALLOW_ONCE_KEY = { altKey: true, key: 'a', label: 'Alt+A' };

const SHELL_CLASS_LABEL = { read_only: 'read-only', write: 'writes', destructive: 'destructive', unknown: 'cannot be judged' } as const;
const SHELL_CLASS_CHIP = { read_only: 'chip-ok', write: 'chip-running', destructive: 'chip-error', unknown: 'chip-awaiting' } as const;

/** Arguments in which models commonly say why they make a call; the first that holds text is shown as the model's reason. */
const REASON_ARGS = ['description', 'reason', 'explanation', 'purpose', 'justification'] as const;

/** What the model said about why it makes this call, when one of its arguments says it; else null. */
export function statedReason(args: unknown): string | null {
  if (typeof args !== 'object' || args === null) return null;
  for (const key of REASON_ARGS) {
    const v = (args as Record<string, unknown>)[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}

/** Why a shell line gets no "always" button, in words; null when it gets one (or the dialog already says why). */
function noAlwaysReason(command: NonNullable<ApprovalQuestion['command']>, sandboxed: boolean | undefined): string | null {
  if (command.noAlways) return command.noAlways;
  // Without a sandbox the note below says that "always" is not offered.
  if (sandboxed === false) return null;
  if (command.class === 'destructive') return 'A destructive line is asked about every time, so there is no “always” for it.';
  if (!command.prefixes) return 'No “always” for this line: it has no command Amber can remember it by.';
  return null;
}

/**
 * Asks about tool calls that need a yes, one at a time, oldest first. Deny has the focus when a question
 * opens, and Enter never approves: on Deny it denies, on the other buttons it does nothing. Allowing takes
 * a click, Space on the focused button, or Alt+A. Questions asked while no window was connected are read
 * from the list when the window connects (again). A shell command that would run in the sandbox may also be
 * run outside it, once, by its own button (never by a key); where no sandbox can start, the dialog says so.
 * "Answer in the conversation" hides a question from the dialog: the call waits, answered on its tool card.
 */
export function ApprovalDialog() {
  const { queue: all, answer: reply } = useApprovalQueue();
  const [busy, setBusy] = useState(false);
  const denyButton = useRef<HTMLButtonElement>(null);
  // Questions the user chose to answer on the tool's card instead: the dialog moves on to the next one.
  const [inCard, setInCard] = useState<ReadonlySet<string>>(() => new Set());
  const queue = all.filter((q) => !inCard.has(q.id));

  const current = queue[0];
  const currentId = current?.id;
  // Deny takes the focus for each new question, once its buttons are enabled again (a disabled button cannot hold it).
  useEffect(() => {
    if (currentId !== undefined && !busy) denyButton.current?.focus();
  }, [currentId, busy]);
  // Where an "always" answer holds: each new question starts at its conversation's workspace folder.
  const [scope, setScope] = useState<ApprovalScope>('folder');
  useEffect(() => setScope('folder'), [currentId]);
  if (!current) return null;

  const answer = async (decision: ApprovalAnswer) => {
    setBusy(true);
    try {
      await reply(current, decision, scope);
    } finally {
      setBusy(false);
    }
  };

  let args: string;
  try {
    args = JSON.stringify(current.args, null, 2);
  } catch {
    args = String(current.args);
  }
  const modelReason = statedReason(current.args);
  // A file edit or write: the change shown as it would land, the arguments as JSON behind a disclosure.
  const change = current.command ? null : changeView(current.args, current.files);
  const shell = current.command;
  const shellNoAlways = shell ? noAlwaysReason(shell, current.sandboxed) : null;
  // Where an "always" answer could be given: a folder rule for a file tool's folder, the tool, or a shell line's prefixes.
  const folderAlways = !shell && current.folder !== null;
  const canAlways = shell ? shellNoAlways === null && current.sandboxed !== false : true;

  return (
    <Modal
      className="modal approval"
      labelledBy="approval-title"
      testId="approval-dialog"
      onKeyDown={(e) => {
        if (busy || e.repeat) return;
        if (e.key === 'Escape') {
          e.preventDefault();
          void answer('deny');
        } else if (e.key === 'Enter') {
          // A button's own Enter would click it: only Deny may be answered with Enter.
          e.preventDefault();
          if (e.target === denyButton.current) void answer('deny');
        } else if (e.altKey === ALLOW_ONCE_KEY.altKey && e.key.toLowerCase() === ALLOW_ONCE_KEY.key && !e.ctrlKey && !e.metaKey) {
          e.preventDefault();
          void answer('once');
        }
      }}
    >
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="tool" size={18} />
        </span>
        <div>
          <h2 id="approval-title">
            Allow <code>{current.toolName}</code>?
          </h2>
          <p className="muted">{current.reason}</p>
          {current.label !== undefined && (
            <p className="muted" data-testid="approval-label">
              Asked by the child agent “{current.label}”
            </p>
          )}
        </div>
        {queue.length > 1 && <span className="chip">{queue.length - 1} more waiting</span>}
      </div>
      {current.command ? (
        <div className="approval-command" data-testid="approval-command">
          <pre className="approval-args">
            <code>{current.command.line}</code>
          </pre>
          <p className="small">
            <span className={`chip ${SHELL_CLASS_CHIP[current.command.class]}`} data-testid="approval-command-class">
              {SHELL_CLASS_LABEL[current.command.class]}
            </span>
            {current.command.reason !== current.reason && ` ${current.command.reason}`}
          </p>
        </div>
      ) : change ? (
        <>
          <ChangePreview view={change} />
          <details className="approval-raw">
            <summary>Arguments</summary>
            <pre className="approval-args">{args}</pre>
          </details>
        </>
      ) : (
        <pre className="approval-args">{args}</pre>
      )}
      <dl className="approval-facts">
        {current.workspaceRoot && (
          <div data-testid="approval-working-folder">
            <dt>{shell ? 'Runs in' : 'Working folder'}</dt>
            <dd>
              <code>{current.workspaceRoot}</code>
            </dd>
          </div>
        )}
        {current.folder && current.folder !== current.workspaceRoot && (
          <div data-testid="approval-folder">
            <dt>{shell ? 'Reaches' : 'Changes files in'}</dt>
            <dd>
              <code>{current.folder}</code>
            </dd>
          </div>
        )}
        {modelReason && (
          <div data-testid="approval-model-reason">
            <dt>The model says</dt>
            <dd>“{modelReason}”</dd>
          </div>
        )}
      </dl>
      {current.protectedPath && (
        <p className="muted small" data-testid="approval-protected">
          This is a protected path: “always” answers do not cover later changes to it.
        </p>
      )}
      {current.sandboxed === true && (
        <p className="muted small" data-testid="approval-sandbox-note">
          Allowed, it runs in the sandbox. “Run unsandboxed” runs this one command outside it, with your full rights: it can change any of your files and use
          the network. That answer is never remembered.
        </p>
      )}
      {current.sandboxed === false && (
        <p className="muted small" data-testid="approval-no-sandbox">
          There is no sandbox here, so nothing confines this command: each one is asked about, and “always” is not offered. Settings → Advanced says how to set
          one up.
        </p>
      )}
      <div className="modal-actions">
        <button
          ref={denyButton}
          type="button"
          className="btn btn-danger-ghost"
          disabled={busy}
          onClick={() => void answer('deny')}
          aria-keyshortcuts="Enter Escape"
        >
          Deny
        </button>
        {current.sandboxed === true && (
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void answer('unsandboxed')}
            title="Runs this one command outside the sandbox, with your full rights; asked again next time"
            data-testid="approval-unsandboxed"
          >
            <Icon name="alert" size={14} /> Run unsandboxed
          </button>
        )}
        <button
          type="button"
          className="btn btn-ghost"
          disabled={busy}
          onClick={() => setInCard((ids) => new Set([...ids, current.id]))}
          title="Hides this question; the call waits, with Allow once and Deny on its card in the conversation"
          data-testid="approval-in-card"
        >
          Answer in the conversation
        </button>
        <span className="spacer" />
        {canAlways && (
          <select
            className="approval-scope"
            data-testid="approval-scope"
            aria-label="Where an always answer holds"
            title={
              scope === 'folder'
                ? `“Always” holds in ${current.workspaceRoot ?? 'this conversation’s workspace folder'}, and is kept until removed in Settings`
                : '“Always” holds in every workspace folder, and is kept until removed in Settings'
            }
            disabled={busy}
            value={scope}
            onChange={(e) => setScope(e.target.value === 'global' ? 'global' : 'folder')}
          >
            <option value="folder">Always: in this workspace folder</option>
            <option value="global">Always: everywhere</option>
          </select>
        )}
        {folderAlways && (
          <button type="button" className="btn" disabled={busy} onClick={() => void answer('always_folder')} title={`Every tool in ${current.folder}`}>
            Always in this folder
          </button>
        )}
        {shell ? (
          shellNoAlways !== null ? (
            // Where "Always" would be: why this line cannot be allowed for good (destructive, interpreters, data sent…).
            <span className="muted small approval-no-always" data-testid="approval-no-always">
              {shellNoAlways}
            </span>
          ) : (
            canAlways && (
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() => void answer('always_tool')}
                title="Later commands starting like this run without asking, unless they are destructive or reach outside the workspace"
              >
                Always for {shell.prefixes?.map((p) => `“${p}”`).join(', ') ?? 'this command'}
              </button>
            )
          )
        ) : (
          <button type="button" className="btn" disabled={busy} onClick={() => void answer('always_tool')}>
            Always for {current.toolName}
          </button>
        )}
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void answer('once')}
          aria-keyshortcuts={ALLOW_ONCE_KEY.label}
          title={ALLOW_ONCE_KEY.label}
        >
          Allow once
        </button>
      </div>
    </Modal>
  );
}
