import { SCHEDULED_RUN_ENTRY, type ScheduledRunTag } from '../../shared/schedule/index.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError, errorMessage } from '../errors.ts';
import { parseModelName } from '../evals/index.ts';
import { UnattendedApprovals } from '../policy/index.ts';
import type { StoredTask } from './scheduled-task-store.ts';
import type { StartedTaskRun } from './task-scheduler.ts';

/** What a scheduled run is made with: the core's sessions, agent, policy and folders. */
export type ScheduledRunCore = Pick<AppCore, 'sessions' | 'agent' | 'policy' | 'workspaces' | 'projects' | 'defaultModel'>;

const ENDINGS: Partial<Record<string, string>> = {
  aborted: 'The run was stopped.',
  max_iterations: 'The run stopped after the most model calls a run may make.',
  loop_detected: 'The run stopped: the model repeated the same calls.',
  recovery_stop: 'The run stopped after repeated failures.',
  blocked: 'The run was blocked by a plugin.',
};

const two = (n: number) => String(n).padStart(2, '0');
/** A local date and time as a title shows it: 2026-12-02 09:00. */
export function localStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * A run of a task, made the way evals make theirs: a new conversation in the task's folder, titled with the task
 * and the time, whose first entry tags it with the task; the task's model; and no one to ask — the policy decides
 * each call that would ask from the task's tool list at once, and a tool not on the list is not run at all.
 */
export function startScheduledRun(core: ScheduledRunCore, task: StoredTask, runId: string, at: number): StartedTaskRun {
  // A project's runs take its folder as it is now, and its model (unless the task names one), thinking level and policy mode.
  const folder = task.projectId ? core.projects.folderOf(task.projectId) : task.folder;
  const problem = core.workspaces.problem(folder);
  if (problem) throw new AmberError('invalid_input', `The task's folder cannot be used: ${problem}`);
  const defaults = task.projectId ? core.projects.defaultsOf(task.projectId) : null;
  const model = task.model ? parseModelName(task.model) : (defaults?.model ?? core.defaultModel());
  if (!model) throw new AmberError('unavailable', 'No model is set up: choose one for the task, or set up a provider in Settings.');
  const approvals = new UnattendedApprovals(task.tools);
  const session = core.sessions.create({ title: `${task.name} — ${localStamp(at)}`, cwd: folder });
  const tag: ScheduledRunTag = { taskId: task.id, name: task.name, runId, at };
  core.sessions.append(session.id, { type: 'custom', customType: SCHEDULED_RUN_ENTRY, data: tag });
  core.agent.setModel(session.id, model);
  if (defaults?.thinkingLevel) core.agent.setThinkingLevel(session.id, defaults.thinkingLevel);
  if (defaults?.policyMode) core.policy.setMode(session.id, defaults.policyMode);
  const unattended = core.policy.runUnattended(session.id, approvals, { onlyListed: true });
  const done = (async () => {
    try {
      const result = await core.agent.prompt(session.id, task.prompt);
      if (result.reason === 'stop') return null;
      return result.error ?? ENDINGS[result.reason] ?? 'The run failed.';
    } catch (e) {
      return errorMessage(e);
    } finally {
      unattended.dispose();
    }
  })();
  return { sessionId: session.id, done };
}
