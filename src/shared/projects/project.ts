import { z } from 'zod';
import { PolicyMode, ThinkingLevel } from '../agent/index.ts';

/** The most instructions text a project keeps. */
export const PROJECT_INSTRUCTIONS_LIMIT = 20_000;

/** A project's id: lowercase letters, digits, `_` and `-` (never a slash: `/project` commands name it). */
export const ProjectId = z.string().regex(/^[a-z0-9_-]{1,64}$/, 'A project id is 1 to 64 lowercase letters, digits, _ or -.');

export const ProjectName = z.string().trim().min(1, 'Give the project a name.').max(80, 'A project name is at most 80 characters.');

/** A model as a conversation names it: the account and the model id. */
export const ProjectModel = z.object({ provider: z.string().min(1).max(100), modelId: z.string().min(1).max(200) });

/**
 * A project: a workspace folder with a name. Conversations whose folder is the project's belong to it; a new
 * conversation started in it takes its model, thinking level and policy mode, and every run in it gets its
 * instructions in the system prompt (after AGENTS.md). Null: the app's default.
 */
export const Project = z.object({
  id: ProjectId,
  name: ProjectName,
  /** The folder's real path, as a conversation's workspace holds it. */
  folder: z.string().min(1).max(4096),
  instructions: z.string().max(PROJECT_INSTRUCTIONS_LIMIT),
  model: ProjectModel.nullable(),
  thinkingLevel: ThinkingLevel.nullable(),
  policyMode: PolicyMode.nullable(),
  createdAt: z.number().int().nonnegative(),
});
export type Project = z.infer<typeof Project>;

/** What creating a project takes: a name and a folder; the rest defaults to none. */
export const ProjectCreate = z
  .object({
    name: ProjectName,
    folder: z.string().min(1).max(4096),
    instructions: z.string().max(PROJECT_INSTRUCTIONS_LIMIT).optional(),
    model: ProjectModel.nullable().optional(),
    thinkingLevel: ThinkingLevel.nullable().optional(),
    policyMode: PolicyMode.nullable().optional(),
  })
  .strict();
export type ProjectCreate = z.infer<typeof ProjectCreate>;

/** What changing a project takes: only the fields given change (null clears a default). */
export const ProjectChange = ProjectCreate.partial().strict();
export type ProjectChange = z.infer<typeof ProjectChange>;
