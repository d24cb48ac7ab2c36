import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { FolderField } from '../folders/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import { useProjects } from '../projects/index.ts';

export interface WorkspaceDialogProps {
  sessionId: string;
  /** The folder the conversation has now, if any: the field starts with it. */
  current: string | null;
  /** True when a tool call is waiting for the answer (cancelling then denies it). */
  requested: boolean;
  onClose(): void;
}

/**
 * Chooses a conversation's workspace folder by path, where the system's folder picker is not at hand: a
 * field that completes existing folders as you type (main lists them) and shows main's reason when a
 * folder is refused. Cancelling a requested choice declines it, so the waiting tool calls are denied.
 */
export function WorkspaceDialog({ sessionId, current, requested, onClose }: WorkspaceDialogProps) {
  const api = useApi();
  const [path, setPath] = useState(current ?? '~/');
  const [error, setError] = useState<string | null>(null);
  // The folder named does not exist: the dialog asks before it makes it.
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const titleId = useId();

  useEffect(() => input.current?.focus(), []);
  const projects = useProjects();

  const cancel = () => {
    if (requested) void api.call('workspace.decline', { sessionId }).catch(() => {});
    onClose();
  };
  const choose = async (create = false) => {
    setBusy(true);
    setError(null);
    setMissing(false);
    try {
      await api.call('sessions.setWorkspace', { sessionId, path, ...(create ? { create } : {}) });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setMissing(!create && e instanceof ApiError && e.code === 'not_found');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      className="modal workspace-dialog"
      labelledBy={titleId}
      testId="workspace-dialog"
      onSubmit={(e) => {
        e.preventDefault();
        void choose();
      }}
      onEscape={cancel}
    >
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="folder" size={18} />
        </span>
        <div>
          <h2 id={titleId}>{requested ? 'Choose a folder for this conversation' : 'Workspace folder'}</h2>
          <p className="muted">
            {requested
              ? 'A tool wants to work with files, and this conversation has no folder yet. Tools stay inside the folder you choose.'
              : 'The tools of this conversation read and change files only inside this folder.'}
          </p>
        </div>
      </div>
      <label className="field" htmlFor={`${listId}-path`}>
        <span>Folder</span>
      </label>
      <FolderField
        id={`${listId}-path`}
        inputRef={input}
        value={path}
        onChange={(next) => {
          setPath(next);
          setError(null);
          setMissing(false);
        }}
        exclude={(f) => f === current || projects.some((p) => p.folder === f)}
        invalid={error !== null}
        {...(error ? { describedBy: `${listId}-error` } : {})}
        testId="workspace-path"
        recentTestId="workspace-recent"
        between={
          projects.length > 0 && (
            <section className="workspace-recent">
              <h3 className="workspace-recent-title">Projects</h3>
              <ul className="workspace-folders" aria-label="Projects" data-testid="workspace-projects">
                {projects.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      onClick={() => setPath(p.folder)}
                      title={p.folder}
                      aria-pressed={path === p.folder}
                    >
                      <Icon name="folder" size={13} /> {p.name}
                      {p.folder === current ? ' (this conversation’s)' : ''}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )
        }
      />
      {error && (
        <p id={`${listId}-error`} className="field-error" role="alert" data-testid="workspace-error">
          {missing ? 'This folder does not exist yet.' : error}
        </p>
      )}
      {missing && (
        <div className="workspace-create" data-testid="workspace-create">
          <span className="muted small">Create it and use it for this conversation?</span>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void choose(true)} data-testid="workspace-create-folder">
            <Icon name="plus" size={13} /> Create folder
          </button>
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={cancel}>
          {requested ? 'Don’t allow' : 'Cancel'}
        </button>
        <span className="spacer" />
        <button type="submit" className="btn btn-primary" disabled={busy || path.trim() === ''} data-testid="workspace-choose">
          Use this folder
        </button>
      </div>
    </Modal>
  );
}
