import { z } from 'zod';

/**
 * The first line of a pi session file. Version 1 files have no `version`; `cwd` is empty in old files.
 * Loose: fields pi adds later (and v1's provider/modelId/thinkingLevel) are kept, not refused.
 */
export const PiSessionHeader = z.looseObject({
  type: z.literal('session'),
  version: z.number().int().positive().optional(),
  id: z.string().min(1).max(128),
  timestamp: z.string(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
});
export type PiSessionHeader = z.infer<typeof PiSessionHeader>;
