import type { TreeBranchPage, TreeNode, TreeOverviewNode, TreeOverviewPage } from '../../shared/sessions/index.ts';
import type { SessionStatements } from './session-statements.ts';

export type { TreeBranchPage, TreeOverviewNode, TreeOverviewPage } from '../../shared/sessions/index.ts';

interface TreeRow {
  id: string;
  parent_id: string | null;
  type: string;
  role: string | null;
  preview: string;
  created_at: number;
  /** A message's `[timestamp, model]` as a JSON array (null for other entries). */
  facts: string | null;
}

type CountedRow = TreeRow & { children: number };

/** How many children of one branch point a page names (a branch point with more is rare: regenerated that often). */
const BRANCHES_PER_POINT = 50;

function labelOf(payload: string): string | null {
  const label = (JSON.parse(payload) as { label?: unknown }).label;
  return typeof label === 'string' && label ? label : null;
}

/**
 * What tells versions of a message apart besides their words: when each was written (the message's own time,
 * which an import keeps; else when it was stored), and a reply's model.
 */
function when(row: TreeRow): { at: number; model?: string } {
  const [time, model] = row.facts ? (JSON.parse(row.facts) as [unknown, unknown]) : [];
  const written = typeof time === 'string' ? Date.parse(time) : Number.NaN;
  const at = Number.isNaN(written) ? row.created_at : written;
  return typeof model === 'string' && model ? { at, model } : { at };
}

/** The tree views of a session, read without payloads (labels aside): whole, or paged along a branch. */
export class TreeReader {
  readonly #q: SessionStatements;

  constructor(q: SessionStatements) {
    this.#q = q;
  }

  /** The whole tree, compactly, in creation order; labels resolved (the newest label on a target wins). */
  tree(sessionId: string): TreeNode[] {
    const labels = new Map<string, string | null>();
    for (const row of this.#q.labels.iterate(sessionId) as Iterable<{ target_id: string; payload: string }>) labels.set(row.target_id, labelOf(row.payload));
    const nodes: TreeNode[] = [];
    for (const r of this.#q.treeRows.iterate(sessionId) as Iterable<TreeRow>) {
      nodes.push({ id: r.id, parentId: r.parent_id, type: r.type, role: r.role, preview: r.preview, label: labels.get(r.id) ?? null, ...when(r) });
    }
    return nodes;
  }

  /**
   * `limit` nodes of the branch from `start` up toward the root, oldest first, each with its child count and
   * label, and the children of its branch points that leave it: what a tree view shows first, read in time
   * that does not grow with the session. `below`: the branch's entry under `start` (on an earlier page), if any.
   */
  page(sessionId: string, start: string | null, limit: number, leafId: string | null, below: string | null = null): TreeOverviewPage {
    if (start === null) return { nodes: [], before: null, leafId, branches: [] };
    const rows = this.#q.walkUpTree.all({ session: sessionId, id: start, limit: limit + 1 }) as CountedRow[];
    const more = rows.length > limit;
    const pageRows = (more ? rows.slice(0, limit) : rows).reverse();
    // Each node's child on the branch is the next node down the page (the last one's is `below`).
    const onBranch = new Map(pageRows.map((r, i) => [r.id, pageRows[i + 1]?.id ?? below]));
    const nodes = this.#nodes(sessionId, pageRows);
    const branches = this.#branches(sessionId, pageRows, onBranch);
    // The page that reaches the root names the other roots too (a first message edited is a second root).
    if (!more) branches.unshift(...this.#leaving(sessionId, null, pageRows[0]!.id));
    return { nodes, before: more ? nodes[0]!.id : null, leafId, branches };
  }

  /**
   * `limit` nodes of the branch read down from `from`, following the newest child at each step (how a branch
   * the leaf is not on goes on), each with its child count and label, and the children of its branch points
   * that leave it. `next`: where the following page starts; null where the branch ends.
   */
  branch(sessionId: string, from: string, limit: number): TreeBranchPage {
    const rows = this.#q.walkDownTree.all({ session: sessionId, id: from, limit: limit + 1 }) as CountedRow[];
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const onBranch = new Map(pageRows.map((r, i) => [r.id, rows[i + 1]?.id ?? null]));
    return { nodes: this.#nodes(sessionId, pageRows), next: more ? rows[limit]!.id : null, branches: this.#branches(sessionId, pageRows, onBranch) };
  }

  /** The children that leave the branch at its branch points (nodes with a child besides the branch's own). */
  #branches(sessionId: string, rows: readonly CountedRow[], onBranch: ReadonlyMap<string, string | null>): TreeOverviewNode[] {
    const out: TreeOverviewNode[] = [];
    for (const row of rows) {
      const own = onBranch.get(row.id) ?? null;
      if (row.children <= (own === null ? 0 : 1)) continue;
      out.push(...this.#leaving(sessionId, row.id, own));
    }
    return out;
  }

  /** The children of `parent` (null: the roots) but `own`, as overview nodes: at most BRANCHES_PER_POINT of them. */
  #leaving(sessionId: string, parent: string | null, own: string | null): TreeOverviewNode[] {
    const children = this.#q.childTreeRows.all({ session: sessionId, parent, limit: BRANCHES_PER_POINT + 1 }) as CountedRow[];
    return this.#nodes(
      sessionId,
      children.filter((child) => child.id !== own),
    ).slice(0, BRANCHES_PER_POINT);
  }

  /** Rows as overview nodes, with their labels (read for these rows only, through the labels' partial index). */
  #nodes(sessionId: string, rows: readonly CountedRow[]): TreeOverviewNode[] {
    if (rows.length === 0) return [];
    const labels = new Map<string, string | null>();
    const ids = JSON.stringify(rows.map((r) => r.id));
    for (const row of this.#q.labelsOf.iterate({ session: sessionId, ids }) as Iterable<{ target_id: string; payload: string }>)
      labels.set(row.target_id, labelOf(row.payload));
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      type: r.type,
      role: r.role,
      preview: r.preview,
      label: labels.get(r.id) ?? null,
      ...when(r),
      children: r.children,
    }));
  }
}
