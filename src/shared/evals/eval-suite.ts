import { z } from 'zod';

/** A path inside the suite's folder or the task's workspace: relative, no `..`, no NUL. */
const RelativePath = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.split(/[\\/]/).includes('..') && !p.includes('\0'), {
    message: 'must be a relative path inside the folder, without ..',
  });
const ToolName = z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be a tool name');
const Weight = z.number().positive().max(100).optional();
/** A regular expression as text; checked to compile. */
const Pattern = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (p) => {
      try {
        return RegExp(p, 'u') instanceof RegExp;
      } catch {
        return false;
      }
    },
    { message: 'is not a valid regular expression' },
  );

/**
 * What makes a run pass. Outcome checks look at the final reply and the workspace afterwards (a command
 * runs in the workspace inside the shell tool's sandbox); trajectory checks look at what the agent did.
 */
export const EvalCheck = z.discriminatedUnion('type', [
  z.object({ type: z.literal('replyContains'), text: z.string().min(1).max(10_000), weight: Weight }).strict(),
  z.object({ type: z.literal('replyMatches'), pattern: Pattern, weight: Weight }).strict(),
  z.object({ type: z.literal('fileExists'), path: RelativePath, weight: Weight }).strict(),
  z.object({ type: z.literal('fileMatches'), path: RelativePath, pattern: Pattern, weight: Weight }).strict(),
  z.object({ type: z.literal('command'), command: z.string().min(1).max(2000), weight: Weight }).strict(),
  z.object({ type: z.literal('toolUsed'), tool: ToolName, weight: Weight }).strict(),
  z.object({ type: z.literal('toolNotUsed'), tool: ToolName, weight: Weight }).strict(),
  /** The tools were called in this order (others may come between, unless `exact`). */
  z.object({ type: z.literal('toolOrder'), tools: z.array(ToolName).min(1).max(50), exact: z.boolean().optional(), weight: Weight }).strict(),
  /** Some call of the tool had these arguments (each named one equal; others may differ). */
  z.object({ type: z.literal('toolArgs'), tool: ToolName, args: z.record(z.string(), z.unknown()), weight: Weight }).strict(),
  z.object({ type: z.literal('maxSteps'), steps: z.number().int().min(0).max(1000), weight: Weight }).strict(),
  /** No call waited for a person (in an unattended run such a call is denied). */
  z.object({ type: z.literal('noApproval'), weight: Weight }).strict(),
  /** A judge model grades the final reply against the rubric (the suite's or the command line's judge, unless named here). */
  z.object({ type: z.literal('rubric'), rubric: z.string().min(1).max(5000), judge: z.string().min(3).max(300).optional(), weight: Weight }).strict(),
]);
export type EvalCheck = z.infer<typeof EvalCheck>;

export const EvalLimits = z
  .object({
    /** Model calls in the run. */
    steps: z.number().int().min(1).max(500).optional(),
    seconds: z.number().positive().max(3600).optional(),
    tokens: z.number().int().positive().max(100_000_000).optional(),
    dollars: z.number().positive().max(10_000).optional(),
  })
  .strict();
export type EvalLimits = z.infer<typeof EvalLimits>;

export const EvalTask = z
  .object({
    id: z.string().regex(/^[a-zA-Z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
    /** One prompt, or several turns sent one after the other. */
    prompt: z.string().min(1).max(100_000).optional(),
    turns: z.array(z.string().min(1).max(100_000)).min(1).max(20).optional(),
    /** A folder inside the suite's folder, copied fresh into each run's workspace. */
    fixture: RelativePath.optional(),
    mode: z.enum(['read', 'write', 'yolo']).optional(),
    limits: EvalLimits.optional(),
    repeat: z.number().int().min(1).max(100).optional(),
    checks: z.array(EvalCheck).min(1).max(50),
  })
  .strict()
  .refine((t) => (t.prompt === undefined) !== (t.turns === undefined), { message: 'needs either a prompt or turns (not both)', path: ['prompt'] });
export type EvalTask = z.infer<typeof EvalTask>;

export const EvalSuite = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(5000).optional(),
    /** Tool calls that would need a person and may run anyway: a tool (`read`) or a shell prefix (`bash:npm test`). */
    allow: z.array(z.string().min(1).max(200)).max(50).optional(),
    /** The model that grades rubric checks, as provider/model (`--judge` overrides it). */
    judge: z.string().min(3).max(300).optional(),
    repeat: z.number().int().min(1).max(100).optional(),
    limits: EvalLimits.optional(),
    tasks: z.array(EvalTask).min(1).max(1000),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.tasks.forEach((t, i) => {
      if (seen.has(t.id)) ctx.addIssue({ code: 'custom', message: `repeats the task id '${t.id}'`, path: ['tasks', i, 'id'] });
      seen.add(t.id);
    });
  });
export type EvalSuite = z.infer<typeof EvalSuite>;

/** One check's result in a run. */
export const EvalCheckResult = z.object({ type: z.string(), passed: z.boolean(), weight: z.number(), detail: z.string() });
export type EvalCheckResult = z.infer<typeof EvalCheckResult>;

/** One run of one task with one model (one line of the JSON Lines report). */
export const EvalRunRecord = z.object({
  evalId: z.string(),
  taskId: z.string(),
  model: z.string(),
  attempt: z.number().int(),
  sessionId: z.string(),
  /** How the run ended: done, error, timeout, over a limit, or stopped by the user. */
  end: z.enum(['done', 'error', 'timeout', 'limit', 'stopped']),
  error: z.string().optional(),
  passed: z.boolean(),
  /** Weighted share of checks passed, 0 to 1. */
  score: z.number(),
  checks: z.array(EvalCheckResult),
  steps: z.number().int(),
  toolCalls: z.number().int(),
  denied: z.number().int(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  cost: z.number(),
  ms: z.number(),
  firstTokenMs: z.number().nullable(),
});
export type EvalRunRecord = z.infer<typeof EvalRunRecord>;
