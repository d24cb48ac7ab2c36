import { z } from 'zod';

const ToolSpecFields = {
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, _ or -'),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  /** Read-only tools run in every policy mode; the others need write or yolo mode, or an approval. */
  readOnly: z.boolean(),
  /**
   * Top-level parameter names whose values are a path or an array of paths; each must be a property of
   * `parameters`. The policy judges a call by these paths alone: a tool that changes things and declares
   * none is asked about in write mode, whatever its arguments look like.
   */
  pathParams: z.array(z.string().min(1)).max(32).optional(),
  /**
   * A shell tool: its `command` argument is a command line the policy classifies before it runs (and
   * "always" answers are kept per command prefix, never for the tool as a whole).
   */
  shell: z.boolean().optional(),
  /**
   * false: the tool's calls in one assistant turn run one after another, in call order (a shell, whose
   * commands may rely on each other's effects). Absent or true: they run in parallel. Either way, calls of
   * tools that change things and name the same path (by `pathParams`) run in call order.
   */
  parallel: z.boolean().optional(),
};

/** Why a spec's `pathParams` do not fit its `parameters`, or null when they do. */
export function pathParamsProblem(spec: { parameters: Record<string, unknown>; pathParams?: readonly string[] | undefined }): string | null {
  if (spec.pathParams === undefined) return null;
  const properties = spec.parameters['properties'];
  const names = properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? Object.keys(properties) : [];
  const missing = spec.pathParams.filter((p) => !names.includes(p));
  if (missing.length > 0) return `pathParams names ${missing.join(', ')}, which parameters.properties does not declare`;
  if (new Set(spec.pathParams).size !== spec.pathParams.length) return 'pathParams names a parameter twice';
  return null;
}

/** Adds the pathParams check to a schema that carries the ToolSpec fields (a spec or a plugin's declaration). */
export function withPathParamsCheck<T extends z.ZodType<{ parameters: Record<string, unknown>; pathParams?: string[] | undefined }>>(schema: T): T {
  return schema.superRefine((spec, ctx) => {
    const problem = pathParamsProblem(spec);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['pathParams'], message: problem });
  }) as T;
}

/** A tool as the model and the dispatcher see it. `parameters` is a JSON Schema object. */
export const ToolSpec = withPathParamsCheck(z.object(ToolSpecFields));
export type ToolSpec = z.infer<typeof ToolSpec>;

/** What a tool returns; `isError` results are shown to the model as errors it can read and act on. */
export const ToolOutput = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  /**
   * Images the result carries (an MCP tool's screenshot), base64: main checks each one's bytes are the type it
   * says (one that is not becomes a note), stores it as a blob and shows it on the tool card; models that read
   * images get it after the text.
   */
  images: z
    .array(z.object({ data: z.string(), mimeType: z.string() }))
    .max(16)
    .optional(),
  isError: z.boolean().default(false),
  details: z.unknown().optional(),
});
export type ToolOutput = z.infer<typeof ToolOutput>;
