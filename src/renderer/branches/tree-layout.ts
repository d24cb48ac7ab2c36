import { countsAsMessage, type TreeNode } from '../../shared/sessions/index.ts';

export interface TreeRow {
  node: TreeNode;
  indent: number;
  /** The row drawn above it in the tree (null: a root); rows that fork from the same one are versions of a message. */
  parent: string | null;
  /** First row of a branch that forks from its parent. */
  forks: boolean;
  /** The conversation forks right after this node. */
  forkPoint: boolean;
  onActivePath: boolean;
  isLeaf: boolean;
  /** A branch not read yet (or the rest of one): the row opens it. */
  stub: boolean;
}

const shownType = (n: TreeNode): boolean => (n.type === 'message' && n.role !== 'toolResult') || n.type === 'compaction' || n.type === 'branch_summary';

/**
 * The session's tree as rows: hidden entries (labels, settings, tool results) skipped, a straight chain
 * kept at one indent, and one more indent only where the conversation forks. `stubs`: nodes that stand for a
 * branch not read yet, drawn whatever their type. A node whose parent was not read starts a chain of its own.
 */
export function layoutTree(nodes: readonly TreeNode[], leafId: string | null, stubs: ReadonlySet<string> = new Set()): TreeRow[] {
  const shown = (n: TreeNode): boolean => stubs.has(n.id) || shownType(n);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const shownParent = new Map<string, string | null>();
  const resolveParent = (id: string | null): string | null => {
    let cur = id;
    while (cur !== null) {
      const n = byId.get(cur);
      if (!n) return null;
      if (shown(n)) return cur;
      cur = n.parentId;
    }
    return null;
  };
  const children = new Map<string | null, TreeNode[]>();
  for (const n of nodes) {
    if (!shown(n)) continue;
    const p = resolveParent(n.parentId);
    shownParent.set(n.id, p);
    const list = children.get(p);
    if (list) list.push(n);
    else children.set(p, [n]);
  }
  const active = new Set<string>();
  for (let cur = leafId; cur !== null; cur = byId.get(cur)?.parentId ?? null) active.add(cur);
  const displayedLeaf = resolveParent(leafId);

  const rows: TreeRow[] = [];
  const roots = children.get(null) ?? [];
  const stack: { node: TreeNode; indent: number; forks: boolean }[] = roots
    .map((node) => ({ node, indent: roots.length > 1 ? 1 : 0, forks: roots.length > 1 }))
    .reverse();
  while (stack.length) {
    const { node, indent, forks } = stack.pop()!;
    const kids = children.get(node.id) ?? [];
    const fork = kids.length > 1;
    rows.push({
      node,
      parent: shownParent.get(node.id) ?? null,
      indent,
      forks,
      forkPoint: fork,
      onActivePath: active.has(node.id),
      isLeaf: node.id === displayedLeaf,
      stub: stubs.has(node.id),
    });
    // The branch on the active path is shown first under a fork, so the current conversation reads straight down.
    const ordered = fork ? [...kids.filter((k) => active.has(k.id)), ...kids.filter((k) => !active.has(k.id))] : kids;
    for (let i = ordered.length - 1; i >= 0; i--) stack.push({ node: ordered[i]!, indent: fork ? indent + 1 : indent, forks: fork });
  }
  return rows;
}

/**
 * How many places the conversation forks: every row with more than one child, and the root itself when
 * the first message was edited (several roots are drawn one indent in, so the first row tells).
 */
export function countBranchPoints(rows: readonly TreeRow[]): number {
  return rows.filter((r) => r.forkPoint).length + (rows[0]?.indent === 1 ? 1 : 0);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `7 messages · 2 branch points`, singular where it is one. `complete` false: parts of the tree are not read
 * yet (earlier pages, branches not opened), so the count is of what was read: `200 messages so far · …`.
 */
export function treeSummary(rows: readonly TreeRow[], complete = true): string {
  const forks = countBranchPoints(rows);
  // Counted as the sidebar counts them (countsAsMessage): a compaction's or a branch's summary row is not a message.
  const read = rows.filter((r) => !r.stub && countsAsMessage(r.node.type, r.node.role)).length;
  const messages = complete ? plural(read, 'message') : `${plural(read, 'message')} so far`;
  return forks > 0 ? `${messages} · ${plural(forks, 'branch point')}` : messages;
}
