import type { TreeNode } from '../../shared/sessions/index.ts';
import type { SessionStatements } from './session-statements.ts';

interface TreeRow {
  id: string;
  parent_id: string | null;
  type: string;
  role: string | null;
  preview: string;
}

/** A node of the tree overview: a tree node with how many children it has (more than one: a branch point). */
export interface TreeOverviewNode extends TreeNode {
  children: number;
}

/** A page of the tree overview: the branch from `before` (or the leaf) up toward the root, oldest first. */
export interface TreeOverviewPage {
  nodes: TreeOverviewNode[];
  /** Pass as `before` for the next page up; null at the root. */
  before: string | null;
  leafId: string | null;
}

function labelOf(payload: string): string | null {
  const label = (JSON.parse(payload) as { label?: unknown }).label;
  return typeof label === 'string' && label ? label : null;
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
      nodes.push({ id: r.id, parentId: r.parent_id, type: r.type, role: r.role, preview: r.preview, label: labels.get(r.id) ?? null });
    }
    return nodes;
  }

  /**
   * `limit` nodes of the branch from `start` up toward the root, oldest first, each with its child count and
   * label: what a tree view shows first, read in time that does not grow with the session.
   */
  page(sessionId: string, start: string | null, limit: number, leafId: string | null): TreeOverviewPage {
    if (start === null) return { nodes: [], before: null, leafId };
    const rows = this.#q.walkUpTree.all({ session: sessionId, id: start, limit: limit + 1 }) as (TreeRow & { children: number })[];
    const more = rows.length > limit;
    const pageRows = (more ? rows.slice(0, limit) : rows).reverse();
    const labels = new Map<string, string | null>();
    const ids = JSON.stringify(pageRows.map((r) => r.id));
    for (const row of this.#q.labelsOf.iterate({ session: sessionId, ids }) as Iterable<{ target_id: string; payload: string }>)
      labels.set(row.target_id, labelOf(row.payload));
    const nodes = pageRows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      type: r.type,
      role: r.role,
      preview: r.preview,
      label: labels.get(r.id) ?? null,
      children: r.children,
    }));
    return { nodes, before: more ? nodes[0]!.id : null, leafId };
  }
}
