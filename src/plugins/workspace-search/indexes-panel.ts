import type { PanelRow, PanelViewModel } from '../../workers/sdk/index.ts';
import type { IndexView } from './workspace-indexes.ts';

/** The panel's id: one ending in `.settings` is drawn under the plugin in Settings → Plugins, not among the panels. */
export const INDEXES_PANEL_ID = 'workspace_search.settings';
export const INDEXES_PANEL_TITLE = 'Search indexes';
/** Workspaces listed at most (the panel's row cap leaves room for the notes). */
const SHOWN = 100;

/** 900 bytes, 12 KB, 3.4 MB. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** just now, 5 minutes ago, 3 hours ago, 2 days ago. */
export function ago(then: number, now: number): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} hour${h === 1 ? '' : 's'} ago`;
  const d = Math.round(h / 24);
  return `${d} days ago`;
}

function stateText(view: IndexView, now: number): string {
  if (view.state === 'building') return `building (${view.progress?.done ?? 0} of ${view.progress?.total ?? 0} files)`;
  if (view.state === 'stopped') return 'stopped while building, as another workspace was searched: goes on at the next search there';
  if (view.updatedAt === null) return 'not built: built again at the next search there';
  const when = `updated ${ago(view.updatedAt, now)}`;
  return view.state === 'ready' ? `ready · ${size(view.bytes)} · ${when}` : `kept on disk · ${size(view.bytes)} · ${when}`;
}

/** One row per workspace searched (its folder, the index's state, size and last update) with Rebuild, then how old indexes go. */
export function indexesPanel(views: readonly IndexView[], now: number, unusedDays: number): PanelViewModel {
  const rows: PanelRow[] = views.slice(0, SHOWN).map((view) => ({
    type: 'text',
    text: `${view.root} — ${stateText(view, now)}`,
    actions: view.state === 'building' ? [] : [{ id: `rebuild.${view.file.replace(/\.sqlite$/, '')}`, label: 'Rebuild' }],
  }));
  if (views.length === 0) rows.push({ type: 'text', text: 'No workspace searched yet: an index is built the first time the agent searches a workspace.' });
  if (views.length > SHOWN) rows.push({ type: 'text', text: `${views.length - SHOWN} more, used longer ago.` });
  rows.push({
    type: 'text',
    text: `Each index is a cache in the plugin's data folder: Rebuild deletes it and reads the workspace again. An index not used for ${unusedDays} days is removed.`,
  });
  return { id: INDEXES_PANEL_ID, title: INDEXES_PANEL_TITLE, sections: [{ rows }], actions: [] };
}
