import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { PolicyMode, ShellClass, ShellCommandInfo } from '../../shared/agent/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { loadShellParser, shellClassify, type ShellClassifyOptions, type ShellVerdict } from './shell-classify.ts';

/** A shell call as the policy judged it: what the user is shown, and the prefixes an "always" keeps. */
export interface ShellJudgement {
  command: ShellCommandInfo;
  verdict: ShellVerdict;
  /** Whether the line, once allowed, runs in the OS sandbox (false: none can start, it runs with the user's rights). */
  sandboxed: boolean;
  /** Protected paths the line changes: an approval of this line makes them writable in the sandbox for that call only. */
  protectedPaths: string[];
}

/** The protected paths a verdict names (the classifier lists those the line changes, where it can tell). */
function protectedPathsOf(verdict: ShellVerdict): string[] {
  const named = (verdict as ShellVerdict & { protectedPaths?: unknown }).protectedPaths;
  return Array.isArray(named) ? named.filter((p): p is string => typeof p === 'string') : [];
}

/** Said in every question about a line that would run without a sandbox. */
export const NO_SANDBOX_SENTENCE = 'No sandbox can start here, so if you allow it, it runs with your full rights.';

export type ShellDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; reason: string; folder: string | null; shell: ShellJudgement };

/**
 * The folder a line's question names, absolute, as a file tool's question names the folder it writes in:
 * that of the protected path the line changes, else of the first path it names outside the workspace; null
 * when it names neither (a line working inside the workspace). It is what the question shows; an "always"
 * answer for a shell line is kept by its command prefix, never by this folder.
 */
export function namedFolder(verdict: ShellVerdict, workspaceRoot: string, home: string = homedir()): string | null {
  const guarded = protectedPathsOf(verdict)[0];
  if (guarded !== undefined) return dirname(guarded);
  const outside = verdict.outside[0];
  if (outside === undefined) return null;
  // Written as the line has it, or "written (which leads to /where/it/lands)": the place it lands is the one that counts.
  const path = / \(which leads to (.+)\)$/.exec(outside)?.[1] ?? outside;
  const full = path === '~' || path.startsWith('~/') ? home + path.slice(1) : resolve(workspaceRoot, path);
  return dirname(full);
}

export interface ShellPolicyOptions {
  classify?: (line: string, options: ShellClassifyOptions) => ShellVerdict;
  load?: () => Promise<void>;
}

const RANK: Record<ShellClass, number> = { read_only: 0, write: 1, unknown: 2, destructive: 3 };

/**
 * Whether a call goes down the shell path: its command line judged by the shell policy, and run in the OS
 * sandbox main describes in the call's context. Only the app's own tools (no origin) and bundled plugins'
 * are believed when they declare `shell: true`: a user plugin runs its command in its own process, where no
 * sandbox of Amber's applies, so judging its line as "read-only" would wave through whatever it really does.
 * A user plugin's shell-like tool is a write tool with no declared paths: it asks in write mode and is
 * denied in read mode. `origin` is required on purpose, so that no caller forgets whose tool it is.
 */
export function isShellTool(spec: ToolSpec, origin: { bundled: boolean } | undefined): boolean {
  return spec.shell === true && (origin === undefined || origin.bundled);
}

/**
 * The policy for shell tools, judged on the command line: read-only runs in every mode; a write inside the
 * workspace runs in write and yolo modes; destructive, unknown and anything naming a path outside the
 * workspace asks in write and yolo modes alike, and so does a write to a protected path (with the question
 * marked protectedPath). Read mode runs only read-only lines and denies the rest. A line that names the data
 * folder anywhere is denied in every mode. "Always" answers are kept per command prefix (`npm test`), never for the tool as a whole, and never
 * cover a destructive line, a path outside the workspace or a protected one, or a worse class than the
 * one approved. The approved prefixes are stored rules the caller passes in (`granted`); none are kept here.
 */
export class ShellPolicy {
  readonly #classify: (line: string, options: ShellClassifyOptions) => ShellVerdict;
  readonly #load: () => Promise<void>;
  constructor(options: ShellPolicyOptions = {}) {
    this.#classify = options.classify ?? shellClassify;
    this.#load = options.load ?? loadShellParser;
  }

  /** Resolves once the parser is loaded; never rejects (an unloaded parser judges every line unknown). */
  async ready(): Promise<void> {
    await this.#load().catch(() => {});
  }

  /**
   * `sandboxed` false: no OS sandbox can start, so in write and yolo modes every line that is not read-only
   * asks (and no "always" is offered: each such line is consent of its own); read mode is unchanged.
   * `granted`: the prefixes "always" answers allow where the call runs, each with the worst class approved.
   */
  decide(
    request: { sessionId: string; workspaceRoot: string; args: Record<string, unknown> },
    mode: PolicyMode,
    sandboxed = true,
    granted: ReadonlyMap<string, ShellClass> = new Map(),
    places: Pick<ShellClassifyOptions, 'deniedRoots' | 'realPath'> = {},
  ): ShellDecision {
    const line = typeof request.args['command'] === 'string' ? request.args['command'] : '';
    const verdict = this.#classify(line, { workspaceRoot: request.workspaceRoot, ...places });
    // Naming the data folder anywhere in the line is refused in every mode, as the file tools refuse it.
    if (verdict.denied.length > 0) return { kind: 'deny', reason: `The command was not run: ${verdict.reason}` };
    const risky = verdict.class === 'destructive' || verdict.class === 'unknown' || verdict.outside.length > 0 || protectedPathsOf(verdict).length > 0;
    const noAlways = verdict.noAlways ? { noAlways: verdict.noAlways } : {};
    if (mode === 'read') {
      if (verdict.class === 'read_only' && !risky) return { kind: 'allow' };
      return {
        kind: 'deny',
        reason: `This conversation is in read mode, so the command was not run: ${verdict.reason} Only read-only commands run in read mode.`,
      };
    }
    if (!sandboxed) {
      if (verdict.class === 'read_only' && !risky) return { kind: 'allow' };
      const reason = `${verdict.reason} ${NO_SANDBOX_SENTENCE}`;
      return {
        kind: 'ask',
        reason,
        folder: namedFolder(verdict, request.workspaceRoot),
        shell: {
          command: { line, class: verdict.class, reason: verdict.reason, ...noAlways },
          verdict: { ...verdict, prefixes: null },
          sandboxed,
          protectedPaths: protectedPathsOf(verdict),
        },
      };
    }
    if (!risky) return { kind: 'allow' };
    if (covered(granted, verdict)) return { kind: 'allow' };
    return {
      kind: 'ask',
      reason: verdict.reason,
      folder: namedFolder(verdict, request.workspaceRoot),
      shell: {
        command: { line, class: verdict.class, reason: verdict.reason, ...(verdict.prefixes ? { prefixes: verdict.prefixes } : {}), ...noAlways },
        verdict,
        sandboxed,
        protectedPaths: protectedPathsOf(verdict),
      },
    };
  }

  /**
   * What an "always" answer to this line keeps (the caller stores it): its prefixes under the line's class.
   * Null for a line that cannot be allowed for good: destructive, naming a path outside the workspace or a
   * protected path, with no prefix, or one the classifier says no "always" may cover (`noAlways`).
   */
  grantable(judgement: ShellJudgement): { prefixes: string[]; class: ShellClass } | null {
    const { verdict } = judgement;
    if (
      verdict.noAlways ||
      !verdict.prefixes ||
      verdict.prefixes.length === 0 ||
      verdict.class === 'destructive' ||
      verdict.outside.length > 0 ||
      protectedPathsOf(verdict).length > 0
    )
      return null;
    return { prefixes: [...verdict.prefixes], class: verdict.class };
  }
}

/** Every command of the line has a granted prefix approved for its class, and the line could be granted at all. */
function covered(granted: ReadonlyMap<string, ShellClass>, verdict: ShellVerdict): boolean {
  if (
    verdict.class === 'destructive' ||
    verdict.outside.length > 0 ||
    !verdict.prefixes ||
    verdict.prefixes.length === 0 ||
    protectedPathsOf(verdict).length > 0
  )
    return false;
  return verdict.prefixes.every((p) => {
    const cls = granted.get(p);
    return cls !== undefined && RANK[verdict.class] <= RANK[cls];
  });
}
