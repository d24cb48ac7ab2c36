import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ToolSpec } from '../../shared/tools/index.ts';

/**
 * The paths a call names in the parameters its tool declares as paths (`pathParams`), resolved lexically
 * against the workspace root. A declared parameter left out counts as its schema default, if that is a
 * path. A leading `~` is read as the home folder, as a tool that expands it would: judging it inside the
 * workspace could wave through a write to the home folder. `unreadable` is true when a declared
 * parameter holds something that is not a path.
 */
export function toolPaths(
  tool: ToolSpec,
  args: Record<string, unknown>,
  workspaceRoot: string,
  home: string = homedir(),
): { paths: string[]; unreadable: boolean } {
  const paths: string[] = [];
  let unreadable = false;
  const properties = tool.parameters['properties'] as Record<string, { default?: unknown } | undefined> | undefined;
  for (const name of tool.pathParams ?? []) {
    const value = name in args ? args[name] : properties?.[name]?.default;
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string' || v.trim() === '' || v.includes('\0')) unreadable = true;
      else if (v === '~' || v.startsWith('~/')) paths.push(resolve(home, v.slice(2)));
      else paths.push(resolve(workspaceRoot, v));
    }
  }
  return { paths, unreadable };
}
