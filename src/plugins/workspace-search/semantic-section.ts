import type { PanelRow } from '../../workers/sdk/index.ts';
import type { SemanticView } from './semantic-indexes.ts';

/** Workspaces listed at most. */
const SHOWN = 50;

function statusText(view: SemanticView, now: number): string {
  const s = view.status;
  switch (s.state) {
    case 'waiting':
      return 'waiting for the index to be built';
    case 'embedding':
      return `embedding (${s.done} of ${s.total} files)`;
    case 'ready':
      return `ready · ${s.files} files, ${s.chunks} chunks`;
    case 'failed': {
      const wait = Math.max(0, Math.round((s.retryAt - now) / 1000));
      const kept = s.files > 0 ? `; the ${s.files} files embedded before are kept` : '';
      return `stopped: ${s.message} Trying again ${wait < 60 ? `in ${wait} s` : `in ${Math.round(wait / 60)} min`}${kept}.`;
    }
    case 'unavailable':
      return s.message;
  }
}

/**
 * The Settings row's "Semantic search" section: how to turn it on (or why the settings cannot be used) when it is
 * off; else the model and, per workspace searched since the plugin started, where its vectors stand.
 */
export function semanticSection(views: readonly SemanticView[], off: string | null, model: string | null, now: number): { title: string; rows: PanelRow[] } {
  const rows: PanelRow[] = [];
  if (off !== null) rows.push({ type: 'text', text: off });
  else {
    rows.push({ type: 'text', text: `Vectors from ${model ?? 'the embeddings endpoint'}, made in the background after each index is built.` });
    for (const view of views.slice(0, SHOWN)) rows.push({ type: 'text', text: `${view.root} — ${statusText(view, now)}` });
    if (views.length === 0) rows.push({ type: 'text', text: 'No workspace searched since the plugin started: vectors are made after the first search there.' });
  }
  return { title: 'Semantic search', rows };
}
