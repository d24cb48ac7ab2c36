import type { AbortSignalLike } from '../../../shared/providers/index.ts';
import type { ToolCallContext } from '../../../shared/tools/index.ts';
import { ToolOutput, type ToolSpec } from '../../../shared/tools/index.ts';
import { errorMessage } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledTool {
  spec: ToolSpec;
  /** `onUpdate` receives the call's progress text while it runs (for the tool card). */
  execute(args: unknown, signal?: AbortSignalLike, context?: ToolCallContext, onUpdate?: (text: string) => void): Promise<ToolOutput>;
}

/** Tools by name. `execute` never throws: every failure is an `isError` output the model can read. */
export class ToolRegistry extends ContributionRegistry<InstalledTool> {
  constructor() {
    super('tool');
  }

  specs(): ToolSpec[] {
    return this.entries().map((e) => e.value.spec);
  }

  async execute(name: string, args: unknown, signal?: AbortSignalLike, context?: ToolCallContext, onUpdate?: (text: string) => void): Promise<ToolOutput> {
    const tool = this.get(name);
    if (!tool) return failed(`There is no tool named '${name}'. Its plugin may be switched off or restarting.`);
    if (signal?.aborted) return failed(`The call to '${name}' was aborted before it started.`);
    try {
      const out = ToolOutput.safeParse(await tool.value.execute(args, signal, context, onUpdate));
      return out.success ? out.data : failed(`The tool '${name}' answered something that is not a tool output.`);
    } catch (e) {
      return failed(errorMessage(e));
    }
  }
}

function failed(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}
