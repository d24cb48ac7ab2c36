import { z } from 'zod';

/** How much the model may think before it answers; sent as the provider's reasoning setting. */
export const ThinkingLevel = z.enum(['off', 'low', 'medium', 'high']);
export type ThinkingLevel = z.infer<typeof ThinkingLevel>;

/** A branch's stored level as one of ours (older or imported entries may carry pi's other names). */
export function thinkingLevelOf(stored: string | null): ThinkingLevel {
  switch (stored) {
    case 'minimal':
    case 'low':
      return 'low';
    case 'medium':
      return 'medium';
    case 'high':
    case 'xhigh':
      return 'high';
    default:
      return 'off';
  }
}
