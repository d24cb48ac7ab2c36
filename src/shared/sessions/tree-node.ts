import { z } from 'zod';

/** A compact node of a session's tree: enough to draw the tree view without loading payloads. */
export const TreeNode = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  type: z.string(),
  role: z.string().nullable(),
  preview: z.string(),
  label: z.string().nullable(),
});
export type TreeNode = z.infer<typeof TreeNode>;
