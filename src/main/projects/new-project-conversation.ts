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
  const summary = core.sessions.create({ ...(options.title !== undefined ? { title: options.title } : {}), cwd: project.folder });
  if (project.model) core.agent.setModel(summary.id, project.model);
  if (project.thinkingLevel) core.agent.setThinkingLevel(summary.id, project.thinkingLevel);
  if (project.policyMode) core.policy.setMode(summary.id, project.policyMode);
  return core.sessions.get(summary.id);
}
