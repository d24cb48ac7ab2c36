import { MORE_OF_BRANCH } from './collect-tree.ts';
import { plainPreview } from './plain-preview.ts';
import type { TreeRow } from './tree-layout.ts';
import { type VersionMark, versionMarks } from './version-marks.ts';

/** The marks of the tree's rows that are versions of one message (rows forking from the same row), by entry id. */
export function treeVersionMarks(rows: readonly TreeRow[], format?: (at: number, withDay: boolean) => string): Map<string, VersionMark> {
  const groups = new Map<string | null, TreeRow[]>();
  for (const row of rows) {
    if (!row.forks || row.node.type === MORE_OF_BRANCH) continue;
    const group = groups.get(row.parent);
    if (group) group.push(row);
    else groups.set(row.parent, [row]);
  }
  const out = new Map<string, VersionMark>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const marks = versionMarks(
      group.map((r) => ({ text: plainPreview(r.node.preview), at: r.node.at, model: r.node.model })),
      undefined,
      format,
    );
    group.forEach((r, i) => out.set(r.node.id, marks[i]!));
  }
  return out;
}
