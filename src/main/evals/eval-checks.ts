import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalCheck, EvalCheckResult } from '../../shared/evals/index.ts';
import { isInside } from '../is-inside.ts';

/** What the agent did in a run, as the checks see it. */
export interface RunTrace {
  /** What the user asked (the turns, joined). */
  prompt: string;
  /** The last reply's text. */
  reply: string;
  /** The run's workspace folder (a real path). */
  workspace: string;
  /** Tool calls in order, with their arguments and how each ended. */
  calls: readonly { name: string; args: Record<string, unknown>; status: string }[];
  /** Model calls. */
  steps: number;
  /** Calls denied because no one was there to approve them. */
  denied: number;
}

/** Runs a command in the workspace inside the shell tool's sandbox: whether it exited 0, and what it said. */
export type CheckCommand = (command: string) => Promise<{ ok: boolean; output: string }>;

/** A judge model's grade of a reply against a rubric, or why there is none. */
export type JudgeVerdict = { passed: boolean; score: number; reasoning: string } | { error: string };
export type CheckJudge = (input: { rubric: string; judge: string | undefined; prompt: string; reply: string }) => Promise<JudgeVerdict>;

const noJudge: CheckJudge = async () => ({ error: 'no judge model is named (the suite\'s "judge" or --judge provider/model)' });

/** The most bytes a file check reads. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The real path of a workspace file, or why it cannot be read (missing, a link out, too big). */
function workspaceFile(workspace: string, path: string): { real: string } | { problem: string } {
  let real: string;
  try {
    real = realpathSync(join(workspace, path));
  } catch {
    return { problem: `${path} does not exist` };
  }
  if (!isInside(workspace, real)) return { problem: `${path} leads outside the workspace` };
  const stat = statSync(real);
  if (!stat.isFile()) return { problem: `${path} is not a file` };
  if (stat.size > MAX_FILE_BYTES) return { problem: `${path} is larger than 4 MB` };
  return { real };
}

/** Whether `args` has each of `expected`'s values (compared as JSON). */
function hasArgs(args: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([k, v]) => JSON.stringify(args[k]) === JSON.stringify(v));
}

/** `wanted` appears in `names` in order, with others between unless `exact`. */
function inOrder(names: readonly string[], wanted: readonly string[], exact: boolean): boolean {
  if (exact) return names.length === wanted.length && names.every((n, i) => n === wanted[i]);
  let at = 0;
  for (const name of names) if (name === wanted[at]) at++;
  return at === wanted.length;
}

/** Each check's result for a run; a check that cannot be evaluated fails with the reason, never throws. */
export async function runChecks(checks: readonly EvalCheck[], trace: RunTrace, command: CheckCommand, judge: CheckJudge = noJudge): Promise<EvalCheckResult[]> {
  const results: EvalCheckResult[] = [];
  const names = trace.calls.map((c) => c.name);
  for (const check of checks) {
    const weight = check.weight ?? 1;
    const result = (passed: boolean, detail: string) => results.push({ type: check.type, passed, weight, detail });
    switch (check.type) {
      case 'replyContains':
        result(
          trace.reply.includes(check.text),
          trace.reply.includes(check.text) ? 'the reply says it' : `the reply does not contain "${clip(check.text, 80)}"`,
        );
        break;
      case 'replyMatches': {
        const ok = new RegExp(check.pattern, 'u').test(trace.reply);
        result(ok, ok ? 'the reply matches' : `the reply does not match /${clip(check.pattern, 80)}/`);
        break;
      }
      case 'fileExists': {
        const file = workspaceFile(trace.workspace, check.path);
        result('real' in file, 'real' in file ? `${check.path} exists` : file.problem);
        break;
      }
      case 'fileMatches': {
        const file = workspaceFile(trace.workspace, check.path);
        if (!('real' in file)) {
          result(false, file.problem);
          break;
        }
        const ok = new RegExp(check.pattern, 'u').test(readFileSync(file.real, 'utf8'));
        result(ok, ok ? `${check.path} matches` : `${check.path} does not match /${clip(check.pattern, 80)}/`);
        break;
      }
      case 'command': {
        const out = await command(check.command).catch((e: unknown) => ({ ok: false, output: e instanceof Error ? e.message : String(e) }));
        result(out.ok, `${check.command}: ${clip(out.output.trim() || (out.ok ? 'exit code 0' : 'failed'))}`);
        break;
      }
      case 'toolUsed':
        result(names.includes(check.tool), names.includes(check.tool) ? `${check.tool} was called` : `${check.tool} was never called`);
        break;
      case 'toolNotUsed':
        result(!names.includes(check.tool), names.includes(check.tool) ? `${check.tool} was called` : `${check.tool} was not called`);
        break;
      case 'toolOrder': {
        const ok = inOrder(names, check.tools, check.exact === true);
        result(ok, ok ? `called in order: ${check.tools.join(', ')}` : `the calls were ${names.join(', ') || 'none'}`);
        break;
      }
      case 'toolArgs': {
        const ok = trace.calls.some((c) => c.name === check.tool && hasArgs(c.args, check.args));
        result(ok, ok ? `${check.tool} was called with those arguments` : `no ${check.tool} call had ${clip(JSON.stringify(check.args), 120)}`);
        break;
      }
      case 'maxSteps':
        result(trace.steps <= check.steps, `${trace.steps} model calls (at most ${check.steps})`);
        break;
      case 'noApproval':
        result(trace.denied === 0, trace.denied === 0 ? 'no call needed a person' : `${trace.denied} calls needed a person and were denied`);
        break;
      case 'rubric': {
        const verdict = await judge({ rubric: check.rubric, judge: check.judge, prompt: trace.prompt, reply: trace.reply }).catch((e: unknown) => ({
          error: e instanceof Error ? e.message : String(e),
        }));
        if ('error' in verdict) result(false, `the judge gave no grade: ${clip(verdict.error)}`);
        else result(verdict.passed, `judged ${verdict.score.toFixed(2)}: ${clip(verdict.reasoning, 1000)}`);
        break;
      }
    }
  }
  return results;
}
