import { z } from 'zod';
import type { Entry } from '../sessions/index.ts';

/** The most items a plan holds: a short checklist, not a backlog. */
export const PLAN_MAX_ITEMS = 20;
/** The longest item text. */
export const PLAN_ITEM_MAX_CHARS = 300;
/** The `customType` of the session entries a plan is kept in (custom entries are never sent to the model). */
export const PLAN_ENTRY_TYPE = 'amber.plan';

export const PlanItemStatus = z.enum(['pending', 'in_progress', 'done']);
export type PlanItemStatus = z.infer<typeof PlanItemStatus>;

export const PlanItem = z
  .object({
    text: z.string().trim().min(1, 'an item needs a text').max(PLAN_ITEM_MAX_CHARS, `an item's text is at most ${PLAN_ITEM_MAX_CHARS} characters`),
    status: PlanItemStatus,
  })
  .strict();
export type PlanItem = z.infer<typeof PlanItem>;

/** A whole checklist, as the todo tool writes it each time: at most one item in progress. */
export const PlanItems = z
  .array(PlanItem)
  .max(PLAN_MAX_ITEMS, `a plan has at most ${PLAN_MAX_ITEMS} items`)
  .refine((items) => items.filter((i) => i.status === 'in_progress').length <= 1, 'at most one item is in_progress at a time');
export type PlanItems = z.infer<typeof PlanItems>;

/** What a plan entry's `data` holds. */
export const PlanEntryData = z.object({ items: PlanItems });
export type PlanEntryData = z.infer<typeof PlanEntryData>;

/** The plan of a conversation's current branch, as the window shows it; `entryId` null: the branch has none. */
export const PlanView = z.object({
  sessionId: z.string(),
  items: PlanItems,
  /** The entry the plan was read from (the newest plan entry on the branch), null when there is none. */
  entryId: z.string().nullable(),
});
export type PlanView = z.infer<typeof PlanView>;

export const PlanGet = z.object({ sessionId: z.string().min(1).max(128) }).strict();
export type PlanGet = z.infer<typeof PlanGet>;

/** The items of a plan entry; null for any other entry or for one whose data does not read as a plan. */
export function planOfEntry(entry: Entry): PlanItems | null {
  if (entry.type !== 'custom' || entry.customType !== PLAN_ENTRY_TYPE) return null;
  const data = PlanEntryData.safeParse(entry.data);
  return data.success ? data.data.items : null;
}

/** How many items are done, for "3 of 5 done". */
export function doneCount(items: readonly PlanItem[]): number {
  return items.filter((i) => i.status === 'done').length;
}

/** Whether the todo tool is on (the core setting agent.todo), as Settings shows and sets it. */
export const PlanSettings = z.object({ enabled: z.boolean() }).strict();
export type PlanSettings = z.infer<typeof PlanSettings>;
