import { INTERPRETERS } from './judge-interpreter.ts';
import type { ShellArg, ShellJudge } from './shell-args.ts';
import { exportedVariableRisk } from './shell-variables.ts';

/** Commands that run another command: judged by their own options, then by the command they run. */
export const WRAPPERS = new Set('env nice ionice stdbuf timeout nohup time exec builtin command xargs'.split(' '));

type Again = (name: string, args: readonly ShellArg[]) => void;

/**
 * Options each wrapper is known to take, and how many words each consumes: `0` a flag, `1` an option with
 * a value (also written attached: `-n5`, `--signal=KILL`). Any other option makes the line unknown, since
 * wrappers are where options name programs to run (`env -S`, `xargs --process-slot-var`, `time -o`).
 */
const OPTIONS: Record<string, Record<string, 0 | 1>> = {
  nice: { '-n': 1, '--adjustment': 1 },
  ionice: { '-c': 1, '-n': 1, '-t': 0, '--class': 1, '--classdata': 1, '--ignore': 0 },
  stdbuf: { '-i': 1, '-o': 1, '-e': 1, '--input': 1, '--output': 1, '--error': 1 },
  timeout: { '-s': 1, '-k': 1, '--signal': 1, '--kill-after': 1, '--preserve-status': 0, '--foreground': 0, '-v': 0, '--verbose': 0 },
  time: { '-p': 0 },
  exec: { '-c': 0, '-l': 0, '-a': 1 },
  command: { '-p': 0 },
  nohup: {},
  builtin: {},
  xargs: {
    '-0': 0,
    '--null': 0,
    '-a': 1,
    '--arg-file': 1,
    '-d': 1,
    '--delimiter': 1,
    '-E': 1,
    '--eof': 1,
    '-e': 0,
    '-I': 1,
    '--replace': 1,
    '-i': 0,
    '-L': 1,
    '--max-lines': 1,
    '-l': 0,
    '-n': 1,
    '--max-args': 1,
    '-P': 1,
    '--max-procs': 1,
    '-s': 1,
    '--max-chars': 1,
    '-r': 0,
    '--no-run-if-empty': 0,
    '-t': 0,
    '--verbose': 0,
    '-x': 0,
    '--exit': 0,
    '-p': 0,
    '--interactive': 0,
    '-o': 0,
    '--open-tty': 0,
    '--show-limits': 0,
  },
};

/** Judges a wrapper (`env`, `nice`, `timeout`, `xargs`…) and the command it runs. */
export function judgeWrapper(judge: ShellJudge, name: string, args: readonly ShellArg[], again: Again): void {
  if (name === 'env') return env(judge, args, again);
  if (name === 'command' && args.some((a) => a.value === '-v' || a.value === '-V')) return;
  const known = OPTIONS[name]!;
  const given = new Map<string, ShellArg | null>();
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === null || !v.startsWith('-') || v === '-') break;
    if (v === '--') {
      i++;
      break;
    }
    if (name === 'nice' && /^-\d+$/.test(v)) continue;
    const eq = v.startsWith('--') ? v.indexOf('=') : -1;
    const key = eq >= 0 ? v.slice(0, eq) : v.startsWith('--') ? v : v.slice(0, 2);
    const takes = known[key];
    if (takes === undefined || (eq >= 0 && takes === 0)) return judge.note('unknown', `${name} ${v} is not an option Amber knows how to judge.`);
    if (takes === 1 && eq < 0 && v.length === 2) given.set(key, args[++i] ?? null);
    else if (takes === 1) given.set(key, { value: eq >= 0 ? v.slice(eq + 1) : v.slice(2), raw: v, glob: false });
    else if (!v.startsWith('--') && v.length > 2) {
      // A cluster of flags (`-0r`): every letter must be a known flag.
      if (Array.from(v.slice(1)).some((c) => known[`-${c}`] !== 0)) return judge.note('unknown', `${name} ${v} is not an option Amber knows how to judge.`);
    } else given.set(key, null);
  }
  if (name === 'timeout') i++;
  if (i >= args.length) return;
  const cmd = args[i]!;
  if (cmd.value === null) return judge.note('unknown', `${name} runs a command named only at run time (${cmd.raw}).`);
  if (name !== 'xargs') return again(cmd.value, args.slice(i + 1));
  return xargs(judge, given, cmd.value, args.slice(i + 1), again);
}

function env(judge: ShellJudge, args: readonly ShellArg[], again: Again): void {
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === null) break;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-i' || v === '--ignore-environment' || v === '-') continue;
    if (v === '-u' || v === '--unset') {
      i++;
      continue;
    }
    if (/^-u./.test(v) || v.startsWith('--unset=')) continue;
    if (v.startsWith('-')) return judge.note('unknown', `env ${v} can run commands or change how they are found, which cannot be judged.`);
    const eq = v.indexOf('=');
    if (eq <= 0) break;
    const risk = exportedVariableRisk(v.slice(0, eq));
    if (risk) return judge.note('unknown', risk);
  }
  // With no command, env prints the environment: read-only, as printenv is (see judge-command.ts).
  if (i >= args.length) return;
  const cmd = args[i]!;
  if (cmd.value === null) return judge.note('unknown', `env runs a command named only at run time (${cmd.raw}).`);
  again(cmd.value, args.slice(i + 1));
}

/**
 * `xargs cmd`: runs cmd with its input as arguments. The input is judged as paths found inside the
 * workspace only when the previous stage of the pipeline lists files (`find`, `git ls-files`…); otherwise
 * it is known only at run time. An interpreter fed by xargs runs code made of its input: never judged.
 */
function xargs(judge: ShellJudge, given: Map<string, ShellArg | null>, cmd: string, rest: readonly ShellArg[], again: Again): void {
  const file = given.get('-a') ?? given.get('--arg-file');
  if (file) judge.arg(file, 'read');
  if (INTERPRETERS.has(cmd.slice(cmd.lastIndexOf('/') + 1))) return judge.note('unknown', `xargs runs ${cmd} with its input, which cannot be judged.`);
  const input: ShellArg = { value: null, raw: 'what xargs reads', glob: false, found: judge.inputIsPaths && !file };
  const token = given.get('-I')?.value ?? given.get('--replace')?.value ?? (given.has('-i') ? '{}' : null);
  if (token) {
    const args = rest.map((a) => (a.value?.includes(token) ? input : a));
    return again(cmd, args);
  }
  again(cmd, [...rest, input]);
}
