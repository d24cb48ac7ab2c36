import { z } from 'zod';
import { ProjectId } from '../projects/index.ts';
import { ScheduleText } from './schedule-rule.ts';

/** A task's prompt is at most this long (a scheduled run's words are typed once, not pasted logs). */
export const MAX_TASK_PROMPT_CHARS = 20_000;
/** At most this many entries in a task's list of tools it may use without asking. */
export const MAX_TASK_TOOLS = 50;
/** The runs kept per task (older ones are forgotten; their conversations stay). */
export const KEPT_RUNS = 20;

/** The custom entry a scheduled run's conversation starts with: which task, and when it was due. */
export const SCHEDULED_RUN_ENTRY = 'scheduled-task';
export const ScheduledRunTag = z.object({ taskId: z.string(), name: z.string(), runId: z.string(), at: z.number() });
export type ScheduledRunTag = z.infer<typeof ScheduledRunTag>;

export const TaskId = z.string().min(1).max(128);

/** One entry of a task's tool list: a tool by name (`read`), or a shell tool with one command prefix (`bash:npm test`). */
export const TaskTool = z
  .string()
  .trim()
  .min(1)
  .max(264)
  .regex(/^[a-zA-Z0-9_-]{1,64}(:.+)?$/, 'name a tool (read) or a shell tool and a command prefix (bash:npm test)');

/** What the user gives for a task (made in Settings or with /schedule add). */
export const ScheduledTaskInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    prompt: z.string().trim().min(1).max(MAX_TASK_PROMPT_CHARS),
    /** The project each run's conversation is started in (its folder and defaults), or else… */
    project: ProjectId.nullable().optional(),
    /** …the folder each run's conversation works in (checked as a conversation's folder is). */
    folder: z.string().trim().min(1).max(4096).nullable().optional(),
    /** `provider/model`; absent: the default model when the run starts. */
    model: z.string().trim().min(3).max(300).nullable().optional(),
    /** RRULE-like text (see parseSchedule); stored in its one spelling. */
    schedule: ScheduleText,
    /** Tools the run may use without asking; every other call that would ask is denied, and tools not listed are not run at all. */
    tools: z.array(TaskTool).max(MAX_TASK_TOOLS).default([]),
  })
  .strict()
  .refine((t) => (t.project ? 1 : 0) + (t.folder ? 1 : 0) === 1, { message: 'Give a task either a project or a folder (one of them).', path: ['folder'] });
export type ScheduledTaskInput = z.input<typeof ScheduledTaskInput>;
/** A task's fields as parsed (the schedule in its one spelling, the tool list given). */
export type ScheduledTaskFields = z.output<typeof ScheduledTaskInput>;

export const ScheduledRunState = z.enum(['running', 'done', 'failed', 'missed']);
export type ScheduledRunState = z.infer<typeof ScheduledRunState>;

/** One run of a task (or, `missed`, the runs it missed while Amber was closed, counted). */
export const ScheduledRun = z.object({
  id: z.string(),
  taskId: z.string(),
  /** The run's conversation (null for missed runs). */
  sessionId: z.string().nullable(),
  state: ScheduledRunState,
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  error: z.string().nullable(),
  /** For `missed`: how many runs were missed. */
  missed: z.number().int().nonnegative(),
});
export type ScheduledRun = z.infer<typeof ScheduledRun>;

/** A task as main keeps it and the window lists it. */
export const ScheduledTask = z.object({
  id: z.string(),
  name: z.string(),
  prompt: z.string(),
  /** The project's id when the task runs in a project (its folder then follows the project's). */
  project: z.string().nullable(),
  folder: z.string(),
  model: z.string().nullable(),
  schedule: z.string(),
  /** The schedule in words ("daily at 09:00"). */
  when: z.string(),
  tools: z.array(z.string()),
  paused: z.boolean(),
  createdAt: z.number(),
  /** When an interval schedule counts from. */
  anchor: z.number(),
  /** Null while paused. */
  nextRunAt: z.number().nullable(),
  running: z.boolean(),
  /** Newest first. */
  runs: z.array(ScheduledRun),
});
export type ScheduledTask = z.infer<typeof ScheduledTask>;

export const ScheduledTaskList = z.object({ tasks: z.array(ScheduledTask) });
export type ScheduledTaskList = z.infer<typeof ScheduledTaskList>;

/** A run ended: the window says so (a toast; a system notification in the desktop app). */
export const ScheduledRunEnded = z.object({ task: z.object({ id: z.string(), name: z.string() }), run: ScheduledRun });
export type ScheduledRunEnded = z.infer<typeof ScheduledRunEnded>;

/** Runs missed while Amber was closed, counted at its start: the window says so once (a toast). */
export const MissedRunsNotice = z.object({
  at: z.number(),
  tasks: z.array(z.object({ id: z.string(), name: z.string(), missed: z.number().int().positive() })),
});
export type MissedRunsNotice = z.infer<typeof MissedRunsNotice>;

/** A change to a task: all its fields, as when it was added (paused stays as it is). */
export const ScheduledTaskUpdate = z.object({ id: TaskId, task: ScheduledTaskInput }).strict();
export type ScheduledTaskUpdate = z.input<typeof ScheduledTaskUpdate>;
