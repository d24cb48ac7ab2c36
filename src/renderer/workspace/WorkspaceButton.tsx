import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import './workspace.css';
import './workspace-project.css';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys, withPending } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { WorkspaceDialog } from './WorkspaceDialog.tsx';
import { projectOf, useProjects } from '../projects/index.ts';

/** The last part of a folder path, for a compact label (the full path is in the tooltip). */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

/**
 * The conversation's workspace folder in the top bar. Clicking it changes the folder: the system's picker
 * where there is one (desktop), else a path field. A tool call waiting for a folder opens the field too.
 */
export function WorkspaceButton({ session }: { session: SessionSummary }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const [editing, setEditing] = useState(false);
  const sessionId = session.id;
  // workspace.requested and workspace.settled add and take the conversation in the cached list.
  const pending = useQuery({ queryKey: serverKeys.workspacePending, queryFn: () => api.call('workspace.pending', {}) }).data;
  const requested = pending?.some((p) => p.sessionId === sessionId) ?? false;
  const close = () => {
    setEditing(false);
    // Answered here: the question is gone even before main says it settled.
    queries.setQueryData(serverKeys.workspacePending, (list: { sessionId: string }[] | undefined) => withPending(list, sessionId, false));
  };

  const change = async () => {
    try {
      const picked = await api.call('workspace.pick', { sessionId });
      if (!picked.supported) setEditing(true);
    } catch (e) {
      toasts.error('Could not change the folder', e);
    }
  };

  const cwd = session.cwd;
  // The project the folder is, named before the folder: the conversation's group in the sidebar.
  const project = projectOf(useProjects(), cwd);
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-small workspace-button"
        title={cwd ? `${project ? `Project: ${project.name} — ` : ''}Workspace: ${cwd} — click to change` : 'No workspace folder yet — click to choose one'}
        onClick={() => void change()}
        data-testid="workspace-button"
      >
        <Icon name="folder" size={14} />
        {project && (
          <span className="workspace-project" data-testid="workspace-project">
            {project.name} ·
          </span>
        )}
        <span className="workspace-name">{cwd ? folderName(cwd) : 'Choose folder'}</span>
      </button>
      {(requested || editing) && <WorkspaceDialog sessionId={sessionId} current={cwd} requested={requested} onClose={close} />}
    </>
  );
}
