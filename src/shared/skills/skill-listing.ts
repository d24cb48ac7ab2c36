import { z } from 'zod';

/** One skill as Settings lists it: where it comes from and whether the model may load it. */
export const SkillView = z.object({
  name: z.string().max(64),
  description: z.string().max(1024),
  source: z.enum(['user', 'workspace']),
  /** on / off: switched by the user; waiting / changed: a workspace skill not (or no longer) confirmed. */
  state: z.enum(['on', 'off', 'waiting', 'changed']),
  /** The folder, from the workspace for a workspace skill, else its full path. */
  where: z.string().max(4096),
});
export type SkillView = z.infer<typeof SkillView>;

/** The skills of the user's Amber folder and, given a conversation, its workspace's; and the refused ones. */
export const SkillListing = z.object({
  skills: z.array(SkillView).max(2000),
  /** Each a sentence naming the refused file and why. */
  problems: z.array(z.string().max(8192)).max(2000),
});
export type SkillListing = z.infer<typeof SkillListing>;
