import { useEffect, useState } from 'react';
import './workspace.css';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { WorkspaceDialog } from './WorkspaceDialog.tsx';

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
  const [dialog, setDialog] = useState<'edit' | 'requested' | null>(null);
  const sessionId = session.id;

  useEffect(() => {
    let live = true;
    api.call('workspace.pending', {}).then(
      (pending) => live && pending.some((p) => p.sessionId === sessionId) && setDialog('requested'),
      () => {},
    );
    const offRequested = api.on('workspace.requested', (r) => r.sessionId === sessionId && setDialog('requested'));
    const offSettled = api.on('workspace.settled', (r) => r.sessionId === sessionId && setDialog((d) => (d === 'requested' ? null : d)));
    return () => {
      live = false;
      offRequested();
      offSettled();
    };
  }, [api, sessionId]);

  const change = async () => {
    try {
      const picked = await api.call('workspace.pick', { sessionId });
      if (!picked.supported) setDialog('edit');
    } catch (e) {
      toasts.error('Could not change the folder', e);
    }
  };

  const cwd = session.cwd;
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-small workspace-button"
        title={cwd ? `Workspace: ${cwd} — click to change` : 'No workspace folder yet — click to choose one'}
        onClick={() => void change()}
        data-testid="workspace-button"
      >
        <Icon name="folder" size={14} />
        <span className="workspace-name">{cwd ? folderName(cwd) : 'Choose folder'}</span>
      </button>
      {dialog && <WorkspaceDialog sessionId={sessionId} current={cwd} requested={dialog === 'requested'} onClose={() => setDialog(null)} />}
    </>
  );
}
