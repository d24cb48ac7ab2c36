import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { deniedFolderOf } from './denied-folder.ts';
import { resolveRealPath } from './real-path.ts';
import { ToolFailure } from './tool-failure.ts';
import { confinePath, isInsideFolder } from './workspace-path.ts';

/** The workspace as one call sees it: its root as given and real, and the denied folders as given and real. */
export interface WorkspaceScope {
  root: string;
  realRoot: string;
  denied: readonly string[];
  /** True for a real path inside a denied folder: walks skip it silently. */
  isDenied(path: string): boolean;
}

/** A path that passed every rule in workspace-path.ts: open `real`, show `relative`. */
export interface WorkspaceTarget {
  input: string;
  /** The lexical path, inside the root. */
  path: string;
  /** The real path, inside the real root; what the tool opens. */
  real: string;
  /** The path relative to the root, as the model should see it. */
  relative: string;
  exists: boolean;
  scope: WorkspaceScope;
}

export function insideDataFolder(input: string): ToolFailure {
  return new ToolFailure(`The path "${input}" is inside Amber's data folder, which tools never touch.`);
}

export async function workspaceScope(ctx: { root: string; denied?: readonly string[] }): Promise<WorkspaceScope> {
  const root = resolve(ctx.root);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    throw new ToolFailure(`The workspace folder ${root} does not exist or cannot be opened; choose an existing folder as the workspace.`);
  }
  const denied = new Set<string>();
  for (const folder of ctx.denied ?? []) {
    const given = resolve(folder);
    denied.add(given);
    denied.add((await resolveRealPath(given).catch(() => ({ real: given }))).real);
  }
  const list = [...denied];
  return { root, realRoot, denied: list, isDenied: (path) => deniedFolderOf(path, list) !== undefined };
}

/**
 * Applies the lexical, denied-folder and real-path rules (see workspace-path.ts) to a path the model gave,
 * and throws a ToolFailure naming the path when one refuses it. An absolute path may name the root by its
 * real location too.
 */
export async function resolveWorkspaceTarget(ctx: { root: string; denied?: readonly string[] }, input: unknown): Promise<WorkspaceTarget> {
  const scope = await workspaceScope(ctx);
  let confined = confinePath(scope.root, input);
  if (!confined.ok && typeof input === 'string' && isAbsolute(input) && scope.realRoot !== scope.root) {
    const viaReal = confinePath(scope.realRoot, input);
    if (viaReal.ok) confined = viaReal;
  }
  if (!confined.ok) throw new ToolFailure(confined.reason);
  const name = input as string;
  if (scope.isDenied(confined.path)) throw insideDataFolder(name);
  let resolved: { real: string; exists: boolean };
  try {
    resolved = await resolveRealPath(confined.path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOOP')
      throw new ToolFailure(`The path "${name}" goes through a loop of symbolic links; fix or remove the links.`);
    throw error;
  }
  if (!isInsideFolder(scope.realRoot, resolved.real)) {
    throw new ToolFailure(`The path "${name}" leads out of the workspace through a symbolic link; tools follow only links that stay inside it.`);
  }
  if (scope.isDenied(resolved.real)) throw insideDataFolder(name);
  return { input: name, path: confined.path, real: resolved.real, relative: confined.relative, exists: resolved.exists, scope };
}
