import { z } from 'zod';

/** One segment of the status bar, from the core (model, tokens, cost, context) or from a plugin. */
export const StatusSegmentView = z.object({
  id: z.string(),
  text: z.string(),
  tooltip: z.string().optional(),
  /** Higher first, left to right. */
  priority: z.number(),
  /** 'core', or the id of the plugin that contributes it. */
  source: z.string(),
  /** A hint for colour: a warning (context nearly full) or an error. */
  tone: z.enum(['normal', 'warning', 'error']).default('normal'),
});
export type StatusSegmentView = z.infer<typeof StatusSegmentView>;

export const StatusBarView = z.object({ sessionId: z.string().nullable(), segments: z.array(StatusSegmentView) });
export type StatusBarView = z.infer<typeof StatusBarView>;
