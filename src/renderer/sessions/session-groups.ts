import type { SessionSummary } from '../../shared/sessions/index.ts';

export type DateGroup = 'Today' | 'Yesterday' | 'Previous 7 days' | 'Older';

/** A project as the sidebar groups by it: conversations whose folder is its folder are its. */
export interface SidebarProject {
  id: string;
  name: string;
  folder: string;
}

/**
 * One line of the sidebar's list: a project's heading (null: "No project"), a date heading, or a conversation
 * under it.
 */
export type SidebarItem =
  | { kind: 'project'; key: string; project: SidebarProject | null; count: number }
  | { kind: 'heading'; key: string; label: DateGroup }
  | { kind: 'session'; key: string; session: SessionSummary };

/** A line of a list grouped by date alone. */
export type DateItem = Exclude<SidebarItem, { kind: 'project' }>;

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
export function groupByDate(sessions: readonly SessionSummary[], now: number): DateItem[] {
  const items: DateItem[] = [];
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

/**
 * With projects: each project (by name, even one with no conversation yet, so a first one can be started
 * there) with its conversations newest first, then "No project" with the rest under date headings. Without
 * projects: the date headings alone, as before there were projects.
 */
export function groupByProject(sessions: readonly SessionSummary[], projects: readonly SidebarProject[], now: number): SidebarItem[] {
  if (projects.length === 0) return groupByDate(sessions, now);
  const byFolder = new Map(projects.map((p) => [p.folder, [] as SessionSummary[]]));
  const rest: SessionSummary[] = [];
  for (const session of sessions) {
    const own = session.cwd !== null ? byFolder.get(session.cwd) : undefined;
    if (own) own.push(session);
    else rest.push(session);
  }
  const items: SidebarItem[] = [];
  for (const project of [...projects].sort((a, b) => a.name.localeCompare(b.name))) {
    const own = byFolder.get(project.folder) ?? [];
    items.push({ kind: 'project', key: `p:${project.id}`, project, count: own.length });
    for (const session of own) items.push({ kind: 'session', key: session.id, session });
  }
  if (rest.length > 0) {
    items.push({ kind: 'project', key: 'p:', project: null, count: rest.length });
    items.push(...groupByDate(rest, now));
  }
  return items;
}
