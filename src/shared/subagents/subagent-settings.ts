import { z } from 'zod';

/** The task tool's switch and its limits, as Settings shows and changes them (the agent.subagents.* settings). */
export const SubagentSettings = z.object({
  enabled: z.boolean(),
  maxParallel: z.number().int().min(1).max(16),
  maxPerTurn: z.number().int().min(1).max(256),
  maxIterations: z.number().int().min(1).max(1000),
  wallTimeMinutes: z.number().int().min(1).max(1440),
  /** 0: no token limit per child. */
  budgetTokens: z.number().int().min(0).max(1_000_000_000),
});
export type SubagentSettings = z.infer<typeof SubagentSettings>;
