import type { Entry } from '../../shared/sessions/index.ts';
import { type SubagentTranscript, type SubagentView, TaskDetails } from '../../shared/subagents/index.ts';

/** The rows a task card starts from: the ones its result carries (the call has ended), else none yet. */
export function rowsFromDetails(details: unknown): SubagentView[] {
  const parsed = TaskDetails.safeParse(details);
  return parsed.success ? parsed.data.subagents : [];
}

/** A row changed (an event): the newest word on each child, in task order. */
export function mergeRow(rows: readonly SubagentView[], changed: SubagentView): SubagentView[] {
  const next = rows.filter((r) => r.index !== changed.index);
  next.push(changed);
  return next.sort((a, b) => a.index - b.index);
}

export const STATE_LABEL: Record<SubagentView['state'], string> = {
  queued: 'waiting',
  running: 'running',
  done: 'done',
  failed: 'failed',
  timed_out: 'timed out',
  stopped: 'stopped',
  refused: 'refused',
};

/** The chip colour of a state, from the tool card's own. */
export const STATE_CHIP: Record<SubagentView['state'], string> = {
  queued: 'chip-awaiting',
  running: 'chip-running',
  done: 'chip-ok',
  failed: 'chip-error',
  timed_out: 'chip-error',
  stopped: 'chip-denied',
  refused: 'chip-denied',
};

export function elapsedLabel(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

export function tokensLabel(tokens: number): string {
  return tokens < 1000 ? `${tokens}` : tokens < 1_000_000 ? `${(tokens / 1000).toFixed(1)}k` : `${(tokens / 1_000_000).toFixed(2)}M`;
}

export interface TranscriptRow {
  entry: Entry;
  depth: number;
  /** The entry starts one of several branches below the same parent: which, of how many. */
  branch?: { n: number; of: number };
  onLeafPath: boolean;
}

/** Every entry in tree order: a branch point's children one after another, each branch indented below it. */
export function transcriptRows(t: SubagentTranscript): TranscriptRow[] {
  const children = new Map<string | null, Entry[]>();
  const byId = new Map<string, Entry>();
  for (const e of t.entries) {
    byId.set(e.id, e);
    const list = children.get(e.parentId) ?? [];
    list.push(e);
    children.set(e.parentId, list);
  }
  const onPath = new Set<string>();
  for (let id = t.leafId; id !== null; id = byId.get(id)?.parentId ?? null) onPath.add(id);
  const rows: TranscriptRow[] = [];
  const walk = (parent: string | null, depth: number) => {
    const kids = children.get(parent) ?? [];
    kids.forEach((entry, i) => {
      const forked = kids.length > 1;
      rows.push({ entry, depth: forked ? depth + 1 : depth, ...(forked ? { branch: { n: i + 1, of: kids.length } } : {}), onLeafPath: onPath.has(entry.id) });
      walk(entry.id, forked ? depth + 1 : depth);
    });
  };
  walk(null, 0);
  return rows;
}
