import type { TreeBranchPage, TreeNode, TreeOverviewNode, TreeOverviewPage } from '../../shared/sessions/index.ts';

/** The entry type of a placeholder row: the rest of a branch that has more than one page, not read yet. */
export const MORE_OF_BRANCH = 'more';

/** What the tree view has read so far, as one list of nodes for layoutTree, and what is still to open. */
export interface CollectedTree {
  /** Nodes in the order layoutTree should keep among siblings: the active branch, then each branch as it leaves. */
  nodes: TreeNode[];
  /** Branches named but not read (or still being read): drawn as rows that open them. */
  stubs: Set<string>;
  /** How many nodes were read (stubs aside). */
  loaded: number;
}

/**
 * Puts the pages read together: `pathPages` are the active branch's pages as read (the leaf's first), and
 * `opened` the branches read down from an entry (absent: not read yet). A branch that leaves the path, and the
 * rest of a branch longer than its page, are stubs until their entry's page is read.
 */
export function collectTree(pathPages: readonly TreeOverviewPage[], opened: ReadonlyMap<string, TreeBranchPage | undefined>): CollectedTree {
  const byId = new Map<string, TreeNode>();
  const stubs = new Set<string>();
  const add = (node: TreeNode): void => {
    if (byId.has(node.id)) return;
    byId.set(node.id, node);
  };
  const queue: TreeOverviewNode[] = [];
  for (let i = pathPages.length - 1; i >= 0; i--) {
    for (const node of pathPages[i]!.nodes) add(node);
    queue.push(...pathPages[i]!.branches);
  }
  // Each branch start, then what was read below it (whose own branch starts join the queue).
  const stubFor = (node: TreeNode): void => {
    const page = opened.get(node.id);
    if (!page || page.nodes[0]?.id !== node.id) {
      stubs.add(node.id);
      return;
    }
    // The branch's first node replaces the placeholder it was read for (in place: siblings keep their order).
    byId.set(node.id, page.nodes[0]!);
    for (const n of page.nodes) add(n);
    queue.push(...page.branches);
    if (page.next !== null) {
      const more: TreeNode = { id: page.next, parentId: page.nodes.at(-1)!.id, type: MORE_OF_BRANCH, role: null, preview: '', label: null };
      add(more);
      stubFor(more);
    }
  };
  for (let i = 0; i < queue.length; i++) {
    const start = queue[i]!;
    if (byId.has(start.id)) continue;
    add(start);
    stubFor(start);
  }
  return { nodes: [...byId.values()], stubs, loaded: byId.size - stubs.size };
}
