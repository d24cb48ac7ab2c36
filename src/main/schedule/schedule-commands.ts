import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { ScheduledRun, ScheduledTask, ScheduledTaskInput } from '../../shared/schedule/index.ts';
import type { CommandContext, CommandTree } from '../commands/index.ts';
import { AmberError } from '../errors.ts';
import { localStamp } from './scheduled-run.ts';
import type { TaskScheduler } from './task-scheduler.ts';

/** What `/schedule add` takes from the conversation it is typed in: its project (else its folder) and its model. */
export interface ScheduleCommandContext {
  placeOf(sessionId: string | null): { project: string } | { folder: string };
  modelOf(sessionId: string | null): string | null;
}

const ADD_USAGE =
  '/schedule add <name> | <schedule> | <prompt> [| <tool>, <tool>…], e.g. /schedule add Standup notes | FREQ=DAILY;BYHOUR=9 | Summarise yesterday’s commits | read, ls';

const EDIT_USAGE =
  '/schedule edit <name> | <field>=<value> [| …] with the fields name, prompt, schedule, model, tools, project and folder, e.g. /schedule edit Standup notes | schedule=FREQ=DAILY;BYHOUR=8 | tools=read, ls';
const EDIT_FIELDS = ['name', 'prompt', 'schedule', 'model', 'tools', 'project', 'folder'] as const;

const splitTools = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

/** A task's fields as `schedule.update` takes them, with the changes `/schedule edit` names applied. */
export function editedInput(task: ScheduledTask, changes: readonly string[]): ScheduledTaskInput {
  const input: ScheduledTaskInput = {
    name: task.name,
    prompt: task.prompt,
    ...(task.project ? { project: task.project } : { folder: task.folder }),
    model: task.model,
    schedule: task.schedule,
    tools: task.tools,
  };
  for (const change of changes) {
    const eq = change.indexOf('=');
    const field = change.slice(0, eq).trim().toLowerCase();
    const value = change.slice(eq + 1).trim();
    if (eq <= 0 || !(EDIT_FIELDS as readonly string[]).includes(field))
      throw new AmberError('invalid_input', `'${change.slice(0, 40)}' is not a change; write it as ${EDIT_USAGE}.`);
    if (field === 'tools') input.tools = splitTools(value);
    else if (field === 'model') input.model = value === '' || value.toLowerCase() === 'default' ? null : value;
    else if (field === 'project') {
      input.project = value;
      delete input.folder;
    } else if (field === 'folder') {
      input.folder = value;
      delete input.project;
    } else input[field as 'name' | 'prompt' | 'schedule'] = value;
  }
  return input;
}

/** `/schedule`: list the tasks; `add`, `edit`, `run`, `pause`, `resume` and `delete` one (named by its name or id). */
export function scheduleCommands(scheduler: TaskScheduler, tree: CommandTree, context: ScheduleCommandContext): Disposable {
  const store = new DisposableStore();
  const find = (argument: string): ScheduledTask => {
    const key = argument.trim();
    if (!key) throw new AmberError('invalid_input', 'Name the task: its name (Tab completes it) or its id.');
    const tasks = scheduler.list();
    const found = tasks.find((t) => t.id === key) ?? tasks.find((t) => t.name.toLowerCase() === key.toLowerCase());
    if (!found) throw new AmberError('not_found', `There is no scheduled task named ${key.slice(0, 100)}; /schedule lists them.`);
    return found;
  };
  store.add(tree.registerFeed('scheduled-tasks', () => scheduler.list().map((t) => ({ name: t.name, help: t.when }))));
  store.add(tree.registerAction('schedule.list', () => describeTasks(scheduler.list())));
  store.add(
    tree.registerAction('schedule.add', async (argument, ctx: CommandContext) => {
      const parts = argument.split('|').map((p) => p.trim());
      if (parts.length < 3 || parts.length > 4 || parts.slice(0, 3).some((p) => p === '')) throw new AmberError('invalid_input', `Write it as ${ADD_USAGE}.`);
      const sessionId = ctx.sessionId ?? null;
      const task = await scheduler.add({
        name: parts[0]!,
        schedule: parts[1]!,
        prompt: parts[2]!,
        ...context.placeOf(sessionId),
        model: context.modelOf(sessionId),
        tools: parts[3] ? splitTools(parts[3]) : [],
      });
      return `Scheduled “${task.name}” ${task.when} in ${task.project ? `the project ${task.project}` : task.folder}; next run ${task.nextRunAt === null ? 'never' : localStamp(task.nextRunAt)}.`;
    }),
  );
  store.add(
    tree.registerAction('schedule.edit', async (argument) => {
      const parts = argument.split('|').map((p) => p.trim());
      if (parts.length < 2 || parts.slice(1).some((p) => p === '')) throw new AmberError('invalid_input', `Write it as ${EDIT_USAGE}.`);
      const before = find(parts[0]!);
      const task = await scheduler.update(before.id, editedInput(before, parts.slice(1)));
      const next = task.paused ? 'paused' : `next run ${task.nextRunAt === null ? 'never' : localStamp(task.nextRunAt)}`;
      return `Changed “${task.name}”: ${task.when}; tools: ${task.tools.length > 0 ? task.tools.join(', ') : 'none'}; ${next}.`;
    }),
  );
  store.add(
    tree.registerAction('schedule.run', (argument) => {
      const task = find(argument);
      scheduler.runNow(task.id);
      return `Running “${task.name}” now; its conversation is in the list.`;
    }),
  );
  for (const paused of [true, false])
    store.add(
      tree.registerAction(paused ? 'schedule.pause' : 'schedule.resume', (argument) => {
        const task = scheduler.setPaused(find(argument).id, paused);
        return paused
          ? `Paused “${task.name}”: it does not run until /schedule resume ${task.name}.`
          : `Resumed “${task.name}”; next run ${task.nextRunAt === null ? 'never' : localStamp(task.nextRunAt)}.`;
      }),
    );
  store.add(
    tree.registerAction('schedule.delete', (argument) => {
      const task = find(argument);
      scheduler.delete(task.id);
      return `Deleted “${task.name}”; the conversations of its runs stay.`;
    }),
  );
  return store;
}

function describeRun(run: ScheduledRun): string {
  if (run.state === 'missed') return run.error ?? `missed ${run.missed}`;
  const at = localStamp(run.startedAt);
  if (run.state === 'running') return `running since ${at}`;
  const seconds = Math.round(((run.endedAt ?? run.startedAt) - run.startedAt) / 1000);
  return `${run.state} ${at} (${seconds} s)${run.error ? `: ${run.error}` : ''}`;
}

/** The text `/schedule` prints. */
export function describeTasks(tasks: readonly ScheduledTask[]): string {
  if (tasks.length === 0) return `No task is scheduled. Add one in Settings → Scheduled tasks, or with ${ADD_USAGE}.`;
  return tasks
    .map((t) => {
      const next = t.paused ? 'paused' : t.nextRunAt === null ? 'not due' : `next ${localStamp(t.nextRunAt)}`;
      const last = t.runs[0];
      return `• ${t.name} — ${t.when}, ${next}${t.running ? ', running now' : ''}; tools: ${t.tools.length > 0 ? t.tools.join(', ') : 'none'}${last ? `; last: ${describeRun(last)}` : ''}`;
    })
    .join('\n');
}
