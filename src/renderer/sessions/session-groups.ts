import type { SessionSummary } from '../../shared/sessions/index.ts';

export type DateGroup = 'Today' | 'Yesterday' | 'Previous 7 days' | 'Older';

/** One line of the sidebar's list: a date heading, or a conversation under it. */
export type SidebarItem = { kind: 'heading'; key: string; label: DateGroup } | { kind: 'session'; key: string; session: SessionSummary };

const DAY_MS = 86_400_000;

/** Which heading a conversation last changed at `ms` goes under, seen at `now` (local days). */
export function dateGroup(ms: number, now: number): DateGroup {
  const today = new Date(now).setHours(0, 0, 0, 0);
  if (ms >= today) return 'Today';
  const yesterday = new Date(today - DAY_MS / 2).setHours(0, 0, 0, 0);
  if (ms >= yesterday) return 'Yesterday';
  if (ms >= today - 7 * DAY_MS) return 'Previous 7 days';
  return 'Older';
}

/** The conversations (newest first) with a heading before each date group that has any. */
export function groupByDate(sessions: readonly SessionSummary[], now: number): SidebarItem[] {
  const items: SidebarItem[] = [];
  let last: DateGroup | null = null;
  for (const session of sessions) {
    const group = dateGroup(session.updatedAt, now);
    if (group !== last) {
      items.push({ kind: 'heading', key: `h:${group}`, label: group });
      last = group;
    }
    items.push({ kind: 'session', key: session.id, session });
  }
  return items;
}
