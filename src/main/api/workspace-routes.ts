import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';
import { joinProject } from '../projects/index.ts';

export interface WorkspaceRoutesOptions {
  /** The system's folder picker (the desktop shell); resolves with the chosen folder, or null when cancelled. */
  pickFolder?: (defaultPath: string) => Promise<string | null>;
}

type WorkspaceChannels = 'sessions.setWorkspace' | 'workspace.complete' | 'workspace.recent' | 'workspace.pick' | 'workspace.pending' | 'workspace.decline';

/** The conversation's workspace folder over the API; every folder is checked by the workspace service. */
export function createWorkspaceRoutes(app: App, options: WorkspaceRoutesOptions): Disposable & { handlers: Pick<Handlers, WorkspaceChannels> } {
  const { workspaces } = app;
  return {
    handlers: {
      'sessions.setWorkspace': ({ sessionId, path, create }) => {
        workspaces.set(sessionId, path, { create: create === true });
        return joinProject(app, sessionId);
      },
      'workspace.complete': ({ input }) => ({ folders: workspaces.complete(input) }),
      'workspace.recent': () => ({ folders: workspaces.recent() }),
      'workspace.pick': async ({ sessionId }) => {
        if (!options.pickFolder) return { supported: false, session: null };
        const chosen = await options.pickFolder(workspaces.of(sessionId) ?? workspaces.defaultForNew());
        if (chosen === null) return { supported: true, session: null };
        workspaces.set(sessionId, chosen);
        return { supported: true, session: joinProject(app, sessionId) };
      },
      'workspace.pending': () => workspaces.pending(),
      'workspace.decline': ({ sessionId }) => ({ ok: workspaces.decline(sessionId) }),
    },
    dispose: () => {},
  };
}
