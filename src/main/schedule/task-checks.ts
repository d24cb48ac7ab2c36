import type { ScheduledTaskFields } from '../../shared/schedule/index.ts';
import type { OfferedTool } from '../../shared/tools/index.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import { parseModelName } from '../evals/index.ts';
import { UnattendedApprovals } from '../policy/index.ts';
import type { StoredTask } from './scheduled-task-store.ts';

/** An account a task's model may name, with the models its provider lists now (empty: none listed yet, any is taken). */
export interface KnownAccount {
  id: string;
  name: string;
  models: readonly string[];
}

/** What a task's fields are checked against. */
export interface TaskChecks {
  /** The folder as a new conversation would get it (its real path); throws a sentence when refused. */
  folder(input: string): string;
  /** A project's folder; throws `not_found` when there is no such project. */
  projectFolder(id: string): string;
  /** The tools the agent can be offered, those of plugins that are off included (unavailable, with the reason). */
  tools(): Promise<readonly OfferedTool[]> | readonly OfferedTool[];
  /** The accounts set up now and the models each lists (the model picker's list). */
  accounts(): readonly KnownAccount[];
  /** The model new conversations use (`provider/model`), which is always known; null when none is set up. */
  defaultModel(): string | null;
}

/** Tools a scheduled run may not be given: the task tool's children would have no one to ask either, and no list of their own. */
const NOT_FOR_TASKS = new Set(['task']);

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * A task's model as stored (`account id/model`): the account named by its id or its name (any case), and the model
 * one it lists when it lists any. Refused with a sentence naming the account or model that is not known.
 */
export function checkTaskModel(checks: Pick<TaskChecks, 'accounts' | 'defaultModel'>, text: string): string {
  const { provider, modelId } = parseModelName(text);
  const asText = `${provider}/${modelId}`;
  if (asText === checks.defaultModel()) return asText;
  const accounts = checks.accounts();
  const account = accounts.find((a) => a.id === provider) ?? accounts.find((a) => a.name.toLowerCase() === provider.toLowerCase());
  if (!account) {
    const names = accounts.map((a) => (a.name === a.id ? a.id : `${a.name} (${a.id})`));
    throw new AmberError(
      'invalid_input',
      `There is no account named ${clip(provider)}; ${names.length > 0 ? `the accounts are ${names.join(', ')}` : 'set one up in Settings → Models first'}.`,
    );
  }
  if (account.models.length > 0 && !account.models.includes(modelId)) {
    const some = account.models.slice(0, 8).join(', ');
    throw new AmberError(
      'invalid_input',
      `${account.name} lists no model ${clip(modelId)}; it lists ${some}${account.models.length > 8 ? ` and ${account.models.length - 8} more` : ''} (Refresh models if it is new).`,
    );
  }
  return `${account.id}/${modelId}`;
}

/** Checks a task's project or folder, model and tools; the refusal names the field and what to write instead. */
export async function checkTaskInput(checks: TaskChecks, input: ScheduledTaskFields): Promise<Pick<StoredTask, 'projectId' | 'folder' | 'model' | 'tools'>> {
  const projectId = input.project ?? null;
  const folder = projectId ? checks.projectFolder(projectId) : checks.folder(input.folder ?? '');
  const model = input.model ? checkTaskModel(checks, input.model) : null;
  const offered = await checks.tools();
  const tools = [...new Set(input.tools)];
  for (const entry of tools) {
    const { tool } = UnattendedApprovals.parse(entry);
    if (NOT_FOR_TASKS.has(tool)) throw new AmberError('invalid_input', `A scheduled task cannot use ${tool}: its child agents would have no one to ask.`);
    const found = offered.find((t) => t.name === tool);
    if (found && !found.available)
      throw new AmberError(
        'invalid_input',
        `${tool} comes from ${found.plugin?.name ?? 'a plugin'}, which cannot run now: ${found.reason ?? 'it is off.'} Or leave ${tool} out.`,
      );
    if (!found) {
      const names = offered.filter((t) => t.available && !NOT_FOR_TASKS.has(t.name)).map((t) => t.name);
      throw new AmberError(
        'invalid_input',
        `There is no tool named ${tool}; a task may list ${names.length > 0 ? names.sort().join(', ') : 'no tool now (turn on a plugin that offers tools)'}.`,
      );
    }
  }
  return { projectId, folder, model, tools };
}

/** The checks over the core's services: folders as a new conversation's, the accounts and models the picker lists. */
export function coreTaskChecks(
  core: Pick<AppCore, 'workspaces' | 'projects' | 'providers' | 'plugins' | 'defaultModel'>,
  tools: () => Promise<readonly OfferedTool[]>,
): TaskChecks {
  return {
    folder: (folder) => core.workspaces.forNewConversation(folder),
    projectFolder: (id) => core.projects.folderOf(id),
    tools,
    accounts: () => {
      const saved = core.providers.list();
      const listed: KnownAccount[] = core.plugins.registries.providers.list().map((p) => ({
        id: p.id,
        name: saved.find((a) => a.id === p.id)?.name ?? p.id,
        models: p.models.map((m) => m.id),
      }));
      // An account whose provider has not started yet is known; its models are not listed yet.
      for (const a of saved) if (!listed.some((l) => l.id === a.id)) listed.push({ id: a.id, name: a.name, models: [] });
      return listed;
    },
    defaultModel: () => {
      const model = core.defaultModel();
      return model ? `${model.provider}/${model.modelId}` : null;
    },
  };
}
