import type { Project } from '../../shared/projects/index.ts';

/** The project a conversation working in `cwd` belongs to: the one whose folder it is, or null. */
export function projectOf(projects: readonly Project[], cwd: string | null | undefined): Project | null {
  if (!cwd) return null;
  return projects.find((p) => p.folder === cwd) ?? null;
}
