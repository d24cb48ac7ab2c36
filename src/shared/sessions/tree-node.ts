import { z } from 'zod';

/** A compact node of a session's tree: enough to draw the tree view without loading payloads. */
export const TreeNode = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  type: z.string(),
  role: z.string().nullable(),
  preview: z.string(),
  label: z.string().nullable(),
  /** When the entry was written (ms since the epoch): what tells versions of a message apart first. */
  at: z.number().optional(),
  /** The model that wrote a reply (absent on other entries). */
  model: z.string().optional(),
});
export type TreeNode = z.infer<typeof TreeNode>;

/** A node of the paged tree overview: a tree node with how many children it has (more than one: a branch point). */
export const TreeOverviewNode = TreeNode.extend({ children: z.number().int().min(0) });
export type TreeOverviewNode = z.infer<typeof TreeOverviewNode>;

/**
 * A page of the tree overview along the active branch, from `before` (or the leaf) up toward the root,
 * oldest first; `branches`: the children of the page's branch points that leave the branch, not yet read below.
 */
export const TreeOverviewPage = z.object({
  nodes: z.array(TreeOverviewNode),
  /** Pass as `before` for the next page up; null at the root. */
  before: z.string().nullable(),
  leafId: z.string().nullable(),
  branches: z.array(TreeOverviewNode),
});
export type TreeOverviewPage = z.infer<typeof TreeOverviewPage>;

/**
 * A page of a branch read downward from an entry, following the newest child at each step; `branches` as in
 * TreeOverviewPage. `next`: the entry to read the next page from, null where the branch ends.
 */
export const TreeBranchPage = z.object({
  nodes: z.array(TreeOverviewNode),
  next: z.string().nullable(),
  branches: z.array(TreeOverviewNode),
});
export type TreeBranchPage = z.infer<typeof TreeBranchPage>;
