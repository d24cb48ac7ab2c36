import type { PluginView } from '../../shared/api/index.ts';

const CATEGORY_TITLES: Record<string, string> = {
  provider: 'Model providers',
  observability: 'Observability',
  tools: 'Tools',
  ui: 'Interface',
  memory: 'Memory',
  search: 'Search',
  other: 'Other',
};
const CATEGORY_ORDER = Object.keys(CATEGORY_TITLES);

function rank(category: string): number {
  const i = CATEGORY_ORDER.indexOf(category);
  return i === -1 ? CATEGORY_ORDER.length : i;
}

/** Known categories in a fixed order; any other category under its own heading, after them. */
export function groupByCategory(plugins: PluginView[]): { category: string; title: string; plugins: PluginView[] }[] {
  const groups = new Map<string, PluginView[]>();
  for (const p of plugins) groups.set(p.category, [...(groups.get(p.category) ?? []), p]);
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([category, list]) => ({
      category,
      title: CATEGORY_TITLES[category] ?? category.charAt(0).toUpperCase() + category.slice(1),
      plugins: list.sort((x, y) => x.name.localeCompare(y.name)),
    }));
}
