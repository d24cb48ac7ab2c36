import { expect, test } from 'vitest';
import type { PluginView } from '../../shared/api/index.ts';
import { groupByCategory } from './plugin-groups.ts';

const plugin = (id: string, category: string, name = id): PluginView => ({
  id,
  name,
  description: '',
  category,
  version: '1.0.0',
  source: 'bundled',
  state: 'active',
  reason: null,
  enabled: true,
  pid: null,
  contributions: [],
  needsConfirmation: false,
  declares: [],
  recentCrashes: 0,
  hasSettings: false,
  process: 'own',
});

test('known categories come first in their order; an unknown one gets its own heading after them', () => {
  const groups = groupByCategory([
    plugin('b', 'other'),
    plugin('z', 'zoology'),
    plugin('m', 'observability'),
    plugin('o', 'provider', 'OpenAI'),
    plugin('a', 'provider', 'Anthropic'),
    plugin('t', 'testing'),
  ]);
  expect(groups.map((g) => [g.category, g.title])).toEqual([
    ['provider', 'Model providers'],
    ['observability', 'Observability'],
    ['other', 'Other'],
    ['testing', 'Testing'],
    ['zoology', 'Zoology'],
  ]);
  expect(groups[0]!.plugins.map((p) => p.name)).toEqual(['Anthropic', 'OpenAI']);
});
