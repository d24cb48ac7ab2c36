import type { Project } from '../../shared/projects/index.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import type { AppCore } from '../app-core.ts';

/** What starting a conversation in a project uses of the core. */
export type ProjectConversationCore = Pick<AppCore, 'sessions' | 'projects' | 'agent' | 'policy'>;

/**
 * Starts a conversation in a project: its folder is the project's, and it takes the project's model, thinking
 * level and policy mode where the project sets them (recorded on the new branch as a switch would be). The
 * instructions need nothing here: every run reads them from the folder's project.
 */
export function newProjectConversation(core: ProjectConversationCore, projectId: string, options: { title?: string } = {}): SessionSummary {
  const project = core.projects.get(projectId);
  return newConversation(core, { ...options, cwd: project.folder });
}

/**
 * Starts a conversation in a folder (already checked); when the folder is a project's, the conversation takes
 * that project's defaults, however it was started (the project's New, `/new`, the API with a folder).
 */
export function newConversation(core: ProjectConversationCore, options: { title?: string | undefined; cwd: string | null }): SessionSummary {
  const summary = core.sessions.create({ ...(options.title !== undefined ? { title: options.title } : {}), cwd: options.cwd });
  const project = core.projects.ofFolder(options.cwd);
  if (!project) return summary;
  applyDefaults(core, summary.id, project);
  return core.sessions.get(summary.id);
}

/**
 * A conversation with no message yet that now works in a project's folder (a new one moved into a project
 * from the folder dialog) takes the project's defaults, as if it had been started there. One with messages
 * only moves to the project's group: what it runs with stays as chosen.
 */
export function joinProject(core: ProjectConversationCore, sessionId: string): SessionSummary {
  const summary = core.sessions.get(sessionId);
  const project = core.projects.ofFolder(summary.cwd);
  if (!project || summary.messageCount > 0) return summary;
  applyDefaults(core, sessionId, project);
  return core.sessions.get(sessionId);
}

function applyDefaults(core: ProjectConversationCore, sessionId: string, project: Project): void {
  if (project.model) core.agent.setModel(sessionId, project.model);
  if (project.thinkingLevel) core.agent.setThinkingLevel(sessionId, project.thinkingLevel);
  if (project.policyMode) core.policy.setMode(sessionId, project.policyMode);
}
