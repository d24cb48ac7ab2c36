import { z } from 'zod';

/**
 * How freely a session's tools run: read (only read-only tools), write (writes inside the workspace run,
 * anything else asks), yolo (everything runs). Stored deny rules apply in every mode.
 */
export const PolicyMode = z.enum(['read', 'write', 'yolo']);
export type PolicyMode = z.infer<typeof PolicyMode>;

/** A stored rule: allow or deny one tool, one folder (absolute path), or one tool inside one folder. */
export const PolicyRule = z
  .object({
    effect: z.enum(['allow', 'deny']),
    tool: z.string().min(1).optional(),
    folder: z.string().min(1).optional(),
  })
  .refine((r) => r.tool !== undefined || r.folder !== undefined, 'a rule names a tool, a folder or both');
export type PolicyRule = z.infer<typeof PolicyRule>;

export const PolicyRules = z.array(PolicyRule);
export type PolicyRules = z.infer<typeof PolicyRules>;

/**
 * How a shell command line was judged before it runs: read_only runs in every mode, write in write and
 * yolo modes; destructive and unknown (unparseable, or using constructs that cannot be judged) always ask
 * or are denied.
 */
export const ShellClass = z.enum(['read_only', 'write', 'destructive', 'unknown']);
export type ShellClass = z.infer<typeof ShellClass>;

/** The command line of a shell call as the user sees it in an approval, with its class and why. */
export const ShellCommandInfo = z.object({
  line: z.string(),
  class: ShellClass,
  reason: z.string(),
  /** What "always" would allow from now on (`npm test`); absent when the line cannot be allowed for good. */
  prefixes: z.array(z.string()).optional(),
});
export type ShellCommandInfo = z.infer<typeof ShellCommandInfo>;
/**
 * What the user is asked before a tool call runs. One question per call; identical calls (same tool, same
 * arguments) waiting at once share one. The answer covers only the calls that asked it.
 */
export const ApprovalQuestion = z.object({
  id: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  toolCallId: z.string(),
  args: z.unknown(),
  /** The folder the call touches (absolute), or null when it names no path. */
  folder: z.string().nullable(),
  /** Why the policy asks, as a sentence. */
  reason: z.string(),
  /** The call changes a protected path (git hooks, shell start-up files, package scripts…): "always" answers do not cover such calls later. */
  protectedPath: z.boolean().optional(),
  /** For a shell tool: the command line and how it was judged. */
  command: ShellCommandInfo.optional(),
  /**
   * For a shell tool: true when the line, once allowed, runs in the OS sandbox (then "run unsandboxed" may
   * be answered); false when no sandbox can start here and an allowed line runs with the user's full rights.
   */
  sandboxed: z.boolean().optional(),
});
export type ApprovalQuestion = z.infer<typeof ApprovalQuestion>;

/**
 * `once` runs the call asked about. `always_tool` and `always_folder` run it too and grant the tool or the
 * folder for the rest of the session in this process; calls still waiting are then decided again.
 * `unsandboxed` runs this one shell call outside the OS sandbox, with the user's full rights: it is valid
 * only for a question with `sandboxed: true`, is never remembered, and is a denial anywhere else.
 */
export const ApprovalAnswer = z.enum(['once', 'always_tool', 'always_folder', 'deny', 'unsandboxed']);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;
