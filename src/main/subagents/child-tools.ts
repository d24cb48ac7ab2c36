import type { ToolSpec } from '../../shared/tools/index.ts';
import { TASK_TOOL_NAME } from '../../shared/subagents/index.ts';
import type { ToolSource } from '../agent/index.ts';
import type { SubagentKind } from './agent-catalog.ts';

/**
 * The tools a child agent of this kind may use: the parent's, never the task tool (depth 1), only those the
 * kind names, and only read-only ones for a kind that may not write. Hands out the same array while the
 * parent's tools stay the same, so the child's run builds its system message once.
 */
export function childTools(base: ToolSource, kind: SubagentKind): ToolSource {
  let seen: readonly ToolSpec[] | null = null;
  let allowed: readonly ToolSpec[] = [];
  const names = kind.tools ? new Set(kind.tools) : null;
  const allows = (spec: ToolSpec): boolean => spec.name !== TASK_TOOL_NAME && (names === null || names.has(spec.name)) && (kind.mayWrite || spec.readOnly);
  return {
    async list() {
      const all = await base.list();
      if (all !== seen) {
        seen = all;
        allowed = all.filter(allows);
      }
      return allowed;
    },
    // The tool is told a child calls it: a child reads what the parent's tools read, but some refuse it (remembering).
    execute: (name, args, execution) => base.execute(name, args, { ...execution, subagent: true }),
    ...(base.origin ? { origin: (name: string) => base.origin?.(name) } : {}),
  };
}
