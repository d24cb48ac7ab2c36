import { expect, test } from 'vitest';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { dateGroup, groupByDate, groupByProject } from './session-groups.ts';

const now = new Date(2026, 5, 15, 14, 30).getTime();
const at = (day: number, hour = 12) => new Date(2026, 5, day, hour).getTime();
const session = (id: string, updatedAt: number): SessionSummary => ({
  id,
  title: id,
  createdAt: updatedAt,
  updatedAt,
  leafId: null,
  messageCount: 0,
  preview: '',
  cwd: null,
});

test('a conversation goes under Today, Yesterday, Previous 7 days or Older by its local day', () => {
  expect(dateGroup(at(15, 0), now)).toBe('Today');
  expect(dateGroup(at(14, 23), now)).toBe('Yesterday');
  expect(dateGroup(at(14, 0), now)).toBe('Yesterday');
  expect(dateGroup(at(13, 23), now)).toBe('Previous 7 days');
  expect(dateGroup(at(8, 1), now)).toBe('Previous 7 days');
  expect(dateGroup(at(7, 12), now)).toBe('Older');
});

test('each group that has conversations gets one heading, in the order of the list', () => {
  const items = groupByDate([session('a', at(15)), session('b', at(15, 9)), session('c', at(10)), session('d', at(1))], now);
  expect(items.map((i) => (i.kind === 'heading' ? `# ${i.label}` : i.session.id))).toEqual(['# Today', 'a', 'b', '# Previous 7 days', 'c', '# Older', 'd']);
});

test('with projects, each project (by name, even an empty one) lists its conversations, then "No project" the rest by date', () => {
  const inSite = { ...session('a', at(15)), cwd: '/w/site' };
  const inApi = { ...session('b', at(14)), cwd: '/w/api' };
  const loose = { ...session('c', at(15)), cwd: '/w/other' };
  const none = session('d', at(1));
  const projects = [
    { id: 'site', name: 'Site', folder: '/w/site' },
    { id: 'api', name: 'API', folder: '/w/api' },
    { id: 'docs', name: 'Docs', folder: '/w/docs' },
  ];
  const items = groupByProject([inSite, loose, inApi, none], projects, now);
  expect(
    items.map((i) => (i.kind === 'project' ? `# ${i.project?.name ?? 'No project'} (${i.count})` : i.kind === 'heading' ? `## ${i.label}` : i.session.id)),
  ).toEqual(['# API (1)', 'b', '# Docs (0)', '# Site (1)', 'a', '# No project (2)', '## Today', 'c', '## Older', 'd']);
  // Without projects the list is as it always was.
  expect(groupByProject([inSite, none], [], now)).toEqual(groupByDate([inSite, none], now));
});
