import { z } from 'zod';
import type { AbortSignalLike } from '../../shared/providers/index.ts';
import type { ShellSandbox, ToolOutput, ToolSpec } from '../../shared/tools/index.ts';
import { ToolFailure } from './tool-failure.ts';
import { resolveWorkspaceTarget, type WorkspaceTarget } from './workspace-target.ts';

export { ToolFailure };

/** What a workspace tool runs with: the resolved root (see resolveWorkspaceRoot) and an optional abort. */
export interface WorkspaceToolContext {
  root: string;
  /**
   * Absolute folders the tools never touch, whatever the path or mode (Amber's own data folder: secrets,
   * database, plugin data). A target inside one, by its path or its real path, is refused; walks skip them.
   */
  denied?: readonly string[];
  /** For the shell: the sandbox main chose for this call; absent means read-only, no network (see sandboxProfile). */
  sandbox?: ShellSandbox;
  signal?: AbortSignalLike;
  /** Progress text for the call's tool card (appended as it arrives; never sent to the model). */
  update?: (text: string) => void;
}

/** A tool as plain data + a function, ready to be wrapped into a plugin contribution. Never throws. */
export interface WorkspaceTool {
  spec: ToolSpec;
  execute(args: unknown, ctx: WorkspaceToolContext): Promise<ToolOutput>;
}

export function textOutput(text: string, details?: unknown): ToolOutput {
  return { content: [{ type: 'text', text }], isError: false, ...(details !== undefined ? { details } : {}) };
}

export function errorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A tool's JSON-schema parameters from its zod schema: one source for the model's view and our parsing. */
export function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return json;
}

/** Resolves a path argument by every confinement rule (see workspace-path.ts) or fails the tool naming it. */
export function workspacePath(ctx: WorkspaceToolContext, input: unknown): Promise<WorkspaceTarget> {
  return resolveWorkspaceTarget(ctx, input);
}

/**
 * Builds a WorkspaceTool: arguments are parsed with the zod schema (the dispatcher validates too; this
 * keeps the tool safe on its own), failures become error results, and the spec's parameters come from it.
 */
export function defineWorkspaceTool<S extends z.ZodType>(options: {
  name: string;
  description: string;
  readOnly: boolean;
  /** Top-level arguments that are paths: the policy judges the call by them (see ToolSpec.pathParams). */
  pathParams: readonly (keyof z.infer<S> & string)[];
  schema: S;
  run: (args: z.infer<S>, ctx: WorkspaceToolContext) => Promise<ToolOutput>;
}): WorkspaceTool {
  return {
    spec: {
      name: options.name,
      description: options.description,
      parameters: parametersOf(options.schema),
      readOnly: options.readOnly,
      pathParams: [...options.pathParams],
    },
    async execute(args, ctx) {
      const parsed = options.schema.safeParse(args ?? {});
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
        return errorOutput(`Invalid arguments for ${options.name}: ${problems}.`);
      }
      if (ctx.signal?.aborted) return errorOutput(`${options.name} was stopped before it ran.`);
      try {
        return await options.run(parsed.data, ctx);
      } catch (error) {
        if (error instanceof ToolFailure) return errorOutput(error.message);
        return errorOutput(`${options.name} failed: ${describeFsError(error)}`);
      }
    },
  };
}

/** Node's fs errors as sentences, without stack or internals. */
export function describeFsError(error: unknown): string {
  const e = error as { code?: string; message?: string; path?: string };
  const where = e.path ? ` (${e.path})` : '';
  switch (e.code) {
    case 'ENOENT':
      return `no such file or directory${where}.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied${where}.`;
    case 'EISDIR':
      return `is a directory${where}.`;
    case 'ENOTDIR':
      return `a part of the path is not a directory${where}.`;
    default:
      return e.message ?? String(error);
  }
}
