import { z } from 'zod';

/**
 * How freely a session's tools run: read (only read-only tools), write (writes inside the workspace run,
 * anything else asks), yolo (everything runs). Stored deny rules apply in every mode.
 */
export const PolicyMode = z.enum(['read', 'write', 'yolo']);
export type PolicyMode = z.infer<typeof PolicyMode>;

/**
 * How a shell command line was judged before it runs: read_only runs in every mode, write in write and
 * yolo modes; destructive and unknown (unparseable, or using constructs that cannot be judged) always ask
 * or are denied.
 */
export const ShellClass = z.enum(['read_only', 'write', 'destructive', 'unknown']);
export type ShellClass = z.infer<typeof ShellClass>;

/** The most stored rules kept: an "always" answer past it still runs its call, but is not remembered. */
export const MAX_POLICY_RULES = 1000;
const RulePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'a path holds no NUL');

/** Where a stored rule came from: an "always" answer in a conversation, Settings, or a command. */
export const PolicyRuleSource = z.object({
  via: z.enum(['approval', 'settings', 'command']),
  /** When it was stored, in ms since the epoch. */
  at: z.number().int().nonnegative(),
  /** The conversation whose question it answered. */
  sessionId: z.string().min(1).max(200).optional(),
});
export type PolicyRuleSource = z.infer<typeof PolicyRuleSource>;

/**
 * A stored rule: allow or deny one tool, one folder (absolute path: the calls whose paths all land in it),
 * or one tool inside one folder; for a shell tool, allow the command lines under one prefix (`npm test`)
 * up to the worst class approved (`class`). `workspace` limits the rule to the conversations working in
 * that folder; without it the rule holds everywhere. Rules stored before ids, sources and workspaces
 * existed still read: they hold everywhere, and get an id when next read.
 */
export const PolicyRule = z
  .object({
    id: z.string().min(1).max(100).optional(),
    effect: z.enum(['allow', 'deny']),
    tool: z.string().min(1).max(128).optional(),
    folder: RulePath.optional(),
    command: z.string().min(1).max(500).optional(),
    class: ShellClass.optional(),
    workspace: RulePath.optional(),
    source: PolicyRuleSource.optional(),
  })
  .refine((r) => r.tool !== undefined || r.folder !== undefined, 'a rule names a tool, a folder or both')
  .refine(
    (r) => r.command === undefined || (r.tool !== undefined && r.effect === 'allow' && r.folder === undefined),
    'a command prefix rule allows one shell tool (deny the whole tool instead)',
  )
  .refine((r) => r.class === undefined || r.command !== undefined, 'only a command prefix rule has a class');
export type PolicyRule = z.infer<typeof PolicyRule>;
/** A rule as stored: it always has its id. */
export const StoredPolicyRule = PolicyRule.and(z.object({ id: z.string().min(1).max(100) }));
export type StoredPolicyRule = z.infer<typeof StoredPolicyRule>;

export const PolicyRules = z.array(PolicyRule).max(MAX_POLICY_RULES, `at most ${MAX_POLICY_RULES} rules are kept`);
export type PolicyRules = z.infer<typeof PolicyRules>;

/** Where an "always" answer holds: in the conversation's workspace folder (the default) or everywhere. */
export const ApprovalScope = z.enum(['folder', 'global']);
export type ApprovalScope = z.infer<typeof ApprovalScope>;

/** How long a question waits before it is denied as timed out; absent (null) it waits. */
export const ApprovalTimeoutSeconds = z.number().int().min(1).max(86_400);

/** The command line of a shell call as the user sees it in an approval, with its class and why. */
export const ShellCommandInfo = z.object({
  line: z.string(),
  class: ShellClass,
  reason: z.string(),
  /** What "always" would allow from now on (`npm test`); absent when the line cannot be allowed for good. */
  prefixes: z.array(z.string()).optional(),
  /** Why no "always" answer is kept for this line (interpreters, git config, data sent, output files, protected paths). */
  noAlways: z.string().optional(),
});
export type ShellCommandInfo = z.infer<typeof ShellCommandInfo>;
/**
 * What the user is asked before a tool call runs. One question per call; identical calls (same tool, same
 * arguments) waiting at once share one. The answer covers only the calls that asked it.
 */
/** A file a call asked about names, as it is before the call: whether it exists, and its size. */
export const ApprovalFile = z.object({
  path: z.string(),
  exists: z.boolean(),
  bytes: z.number().int().nonnegative().optional(),
  /**
   * For an edit (arguments with the old text): where the old text is in the file now — its first line (1-based),
   * how often it occurs, and the lines just around it.
   */
  edit: z
    .object({
      line: z.number().int().positive().optional(),
      occurrences: z.number().int().nonnegative(),
      before: z.array(z.string().max(400)).max(3),
      after: z.array(z.string().max(400)).max(3),
    })
    .optional(),
});
export type ApprovalFile = z.infer<typeof ApprovalFile>;

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
  /** The conversation's workspace folder: where an "always" answer holds unless the user picks "everywhere". */
  workspaceRoot: z.string().optional(),
  /** The call changes a protected path (git hooks, shell start-up files, package scripts…): "always" answers do not cover such calls later. */
  protectedPath: z.boolean().optional(),
  /** For a shell tool: the command line and how it was judged. */
  command: ShellCommandInfo.optional(),
  /**
   * For a shell tool: true when the line, once allowed, runs in the OS sandbox (then "run unsandboxed" may
   * be answered); false when no sandbox can start here and an allowed line runs with the user's full rights.
   */
  sandboxed: z.boolean().optional(),
  /** Who asks when it is not the conversation's own agent: a child agent's description (the task tool). */
  label: z.string().max(200).optional(),
  /** For a file tool: the files its paths name, as they are now (the "before" a write or an edit changes). */
  files: z.array(ApprovalFile).max(16).optional(),
});
export type ApprovalQuestion = z.infer<typeof ApprovalQuestion>;

/**
 * `once` runs the call asked about. `always_tool` and `always_folder` run it too and store an allow rule
 * for the tool (for a shell tool: the line's command prefixes) or the folder, kept across restarts, in the
 * conversation's workspace folder or everywhere (ApprovalReply's `scope`); calls still waiting are then
 * decided again.
 * `unsandboxed` runs this one shell call outside the OS sandbox, with the user's full rights: it is valid
 * only for a question with `sandboxed: true`, is never remembered, and is a denial anywhere else.
 */
export const ApprovalAnswer = z.enum(['once', 'always_tool', 'always_folder', 'deny', 'unsandboxed']);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** An answer with where an "always" answer holds (default: the conversation's workspace folder). */
export const ApprovalReply = z.object({ answer: ApprovalAnswer, scope: ApprovalScope.optional() });
export type ApprovalReply = z.infer<typeof ApprovalReply>;
