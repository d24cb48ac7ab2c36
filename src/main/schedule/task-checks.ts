import type { ScheduledTaskFields } from '../../shared/schedule/index.ts';
import { AmberError } from '../errors.ts';
import { parseModelName } from '../evals/index.ts';
import { UnattendedApprovals } from '../policy/index.ts';
import type { StoredTask } from './scheduled-task-store.ts';

/** What a task's fields are checked against. */
export interface TaskChecks {
  /** The folder as a new conversation would get it (its real path); throws a sentence when refused. */
  folder(input: string): string;
  /** A project's folder; throws `not_found` when there is no such project. */
  projectFolder(id: string): string;
  /** The names of the tools a run can be offered now. */
  toolNames(): Promise<readonly string[]> | readonly string[];
}

/** Tools a scheduled run may not be given: the task tool's children would have no one to ask either, and no list of their own. */
const NOT_FOR_TASKS = new Set(['task']);

/** Checks a task's project or folder, model and tools; the refusal names the field and what to write instead. */
export async function checkTaskInput(checks: TaskChecks, input: ScheduledTaskFields): Promise<Pick<StoredTask, 'projectId' | 'folder' | 'model' | 'tools'>> {
  const projectId = input.project ?? null;
  const folder = projectId ? checks.projectFolder(projectId) : checks.folder(input.folder ?? '');
  const model = input.model ? parseModelName(input.model) : null;
  const known = new Set(await checks.toolNames());
  const tools = [...new Set(input.tools)];
  for (const entry of tools) {
    const { tool } = UnattendedApprovals.parse(entry);
    if (NOT_FOR_TASKS.has(tool)) throw new AmberError('invalid_input', `A scheduled task cannot use ${tool}: its child agents would have no one to ask.`);
    if (!known.has(tool)) {
      const offered = [...known].filter((n) => !NOT_FOR_TASKS.has(n)).sort();
      throw new AmberError(
        'invalid_input',
        `There is no tool named ${tool}; a task may list ${offered.length > 0 ? offered.join(', ') : 'no tool now (turn on a plugin that offers tools)'}.`,
      );
    }
  }
  return { projectId, folder, model: model ? `${model.provider}/${model.modelId}` : null, tools };
}
