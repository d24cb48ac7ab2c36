import { dirname, join } from 'node:path';
import { judgeArchive } from './judge-archive.ts';
import { judgeGit } from './judge-git.ts';
import { INTERPRETERS, judgeInterpreter } from './judge-interpreter.ts';
import { isNetworkCommand, judgeNetwork } from './judge-network.ts';
import { isPackageManager, judgePackages } from './judge-packages.ts';
import { judgeWrapper, WRAPPERS } from './judge-wrapper.ts';
import { has, isOption, optionValues, positional, type ShellArg, type ShellJudge, values } from './shell-args.ts';
import { shellVariableRisk } from './shell-variables.ts';

/** Commands that only read (their path arguments are still checked). */
const READ_ONLY = new Set(
  (
    'ls cat head tail wc grep egrep fgrep zgrep rg ag ack pwd file stat du df cut tr diff cmp comm basename dirname realpath readlink ' +
    'whoami id groups uname arch nproc printenv true false test [ nl od hexdump strings md5sum sha1sum sha256sum sha512sum ' +
    'cksum b2sum column fold fmt paste join rev tac bat base64 pgrep free uptime lsof shopt exit return locale tput clear help : ' +
    'wait unset popd'
  ).split(' '),
);
// printenv (and env with no command) is read-only on purpose: the shell runs with the plugin process's
// environment, which the launcher builds from an allow-list without any provider key, and the sandbox
// trims it further. Printing it shows nothing the command itself could not read.
/** Commands whose arguments are text, never paths. */
const NOT_PATHS = new Set('echo printf which type whereis date cal expr seq sleep'.split(' '));
/** Commands whose first positional argument is a pattern or script, not a path. */
const PATTERN_FIRST = new Set('grep egrep fgrep zgrep rg ag ack'.split(' '));
/** Pagers: with their output in a pipe they print the file; any option (`+!cmd`, `-k`, `-o`) can run or write. */
const PAGERS = new Set('less more most pg man info'.split(' '));
/** Commands that change the machine rather than the workspace. */
const DESTRUCTIVE: Record<string, string> = {
  dd: 'dd writes raw data to files or devices.',
  shred: 'shred destroys file contents beyond recovery.',
  wipefs: 'wipefs erases file system signatures.',
  fdisk: 'fdisk changes disk partitions.',
  sfdisk: 'sfdisk changes disk partitions.',
  parted: 'parted changes disk partitions.',
  mkswap: 'mkswap formats a device.',
  mount: 'mount changes the machine’s file systems.',
  umount: 'umount changes the machine’s file systems.',
  shutdown: 'shutdown turns the machine off.',
  reboot: 'reboot restarts the machine.',
  halt: 'halt stops the machine.',
  poweroff: 'poweroff turns the machine off.',
  init: 'init changes the machine’s run level.',
  pkill: 'pkill stops processes by name.',
  killall: 'killall stops processes by name.',
  su: 'su runs commands as another user.',
  sudo: 'sudo runs commands as root.',
  doas: 'doas runs commands as root.',
  pkexec: 'pkexec runs commands as root.',
  chattr: 'chattr changes file attributes.',
  iptables: 'iptables changes the firewall.',
  useradd: 'useradd changes the machine’s users.',
  userdel: 'userdel changes the machine’s users.',
  passwd: 'passwd changes a password.',
};
const UNKNOWN: Record<string, string> = {
  eval: 'eval runs text as a command, which cannot be judged.',
  source: 'source runs a file of commands, which cannot be judged.',
  '.': '. runs a file of commands, which cannot be judged.',
  alias: 'alias changes what later commands mean.',
  trap: 'trap runs commands later.',
  watch: 'watch runs a command repeatedly.',
  open: 'open hands a file to another program.',
  'xdg-open': 'xdg-open hands a file to another program.',
};
/** Commands that write every path they name. */
const WRITE_ALL = new Set('mkdir touch truncate rmdir tee unlink shred chmod chown chgrp chattr setfacl mv split csplit mktemp'.split(' '));
/** Commands whose arguments are not paths (numbers, names, variables), so a run-time value is fine. */
const NO_PATHS = new Set(
  'exit return wait unset popd shopt help locale tput clear true false : read mapfile readarray set kill hostname systemctl service crontab history id groups whoami uname arch nproc printenv free uptime ps pgrep'.split(
    ' ',
  ),
);
/** Commands that write the last path they name (or the `-t` folder), reading the others. */
const WRITE_LAST = new Set('cp install ln'.split(' '));
const BUILDERS = new Set('make cmake ninja gradle mvn tsc vitest jest pytest mocha vite webpack rollup esbuild gcc g++ cc clang javac rustc'.split(' '));
const OUTPUT_FILE = 'It names an output file, so an “always” answer is never kept for it.';
/** A path's last part (`a/b/` → `b`). */
const base = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? '';
/** `{}`, `{/}`, `{.}`…: where find -exec and fd -x put what they found. */
const placeholder = (c: ShellArg) => c.value !== null && /\{[/.]*\}/.test(c.value);

/** Judges one command by its name and arguments; wrappers recurse into the command they run. */
export function judgeCommand(judge: ShellJudge, rawName: string, args: readonly ShellArg[], depth: number): void {
  if (rawName.includes('/') && !rawName.startsWith('/')) return judge.note('unknown', `It runs the program file ${rawName}, which cannot be judged.`);
  const name = rawName.slice(rawName.lastIndexOf('/') + 1);
  const again = (n: string, a: readonly ShellArg[]) => judgeCommand(judge, n, a, depth);
  if (WRAPPERS.has(name)) return judgeWrapper(judge, name, args, again);
  if (has(args, '', '--pager')) return judge.note('unknown', `${name} --pager runs another program.`);
  if (name in DESTRUCTIVE) {
    if (name === 'dd') ddPaths(judge, args);
    else for (const a of args) judge.arg(a, 'read');
    return judge.note('destructive', DESTRUCTIVE[name]!);
  }
  if (name in UNKNOWN) return judge.note('unknown', UNKNOWN[name]!);
  if (name === 'cd' || name === 'pushd') return judge.cd(name, args);
  // rg --pre runs a program on every file; rg -z runs only the fixed decompressors it knows (gzip, xz…).
  if (name === 'rg' && has(args, '', '--pre')) return judge.note('unknown', 'rg --pre runs a program on every file.');
  if (name === 'git') return judgeGit(judge, args);
  if (INTERPRETERS.has(name) || name === 'sed' || /^python\d/.test(name)) return judgeInterpreter(judge, name, args, depth);
  if (isNetworkCommand(name)) return judgeNetwork(judge, name, args);
  if (isPackageManager(name)) return judgePackages(judge, name, args, again);
  if (['tar', 'zip', 'unzip', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'compress', 'uncompress'].includes(name))
    return judgeArchive(judge, name, args);
  if (NOT_PATHS.has(name)) return textCommand(judge, name, args);
  if (name === 'find' || name === 'fd' || name === 'fdfind') return find(judge, name, args, again);
  if (PAGERS.has(name)) {
    if (args.some((a) => isOption(a) || a.value?.startsWith('+')))
      return judge.note('unknown', `${name} with options can run commands or write files, which cannot be judged.`);
    if (name !== 'man' && name !== 'info') for (const a of args) judge.arg(a, 'read');
    return;
  }
  checkPaths(judge, name, args);
  if (READ_ONLY.has(name)) return;
  if (WRITE_ALL.has(name) || WRITE_LAST.has(name) || name === 'patch') return writes(judge, name, args);
  switch (name) {
    case 'rm': {
      if (has(args, 'rRd', '--recursive', '--dir')) return judge.note('destructive', 'rm -r deletes whole folders.');
      const targets = positional(args);
      if (targets.some((a) => a.glob)) return judge.note('destructive', 'rm with a wildcard deletes files chosen at run time.');
      if (targets.some((a) => a.value === null)) return judge.note('destructive', 'rm deletes files named only at run time.');
      return judge.note('write', `rm deletes ${targets.map((a) => a.value).join(', ') || 'files'}.`);
    }
    case 'kill':
      if (has(args, 'l', '--list')) return;
      return judge.note('destructive', 'kill stops processes that may not belong to this command.');
    case 'sort':
      if (has(args, '', '--compress-program')) return judge.note('unknown', 'sort --compress-program runs another program.');
      if (optionValues(args, 'o', '--output').length > 0) return outputFile(judge, 'sort -o writes a file.');
      return;
    case 'uniq':
    case 'xxd':
      if (positional(args).length > 1) return outputFile(judge, `${name} writes its output file.`);
      return;
    case 'tree':
      if (optionValues(args, 'o', '--output').length > 0) return outputFile(judge, 'tree -o writes a file.');
      return;
    case 'jq':
    case 'yq':
      if (name === 'yq' && has(args, 'i', '--inplace')) return judge.note('write', 'yq -i edits files in place.');
      return;
    case 'ps':
      // BSD-style `ps e` (`ps auxe`) shows other programs' environments, like reading /proc/N/environ.
      if (args.some((a) => a.value !== null && !a.value.startsWith('-') && /^[a-zA-Z]+$/.test(a.value) && a.value.includes('e')))
        return judge.note('unknown', 'ps e shows the environment of other programs, which can hold secrets.');
      return;
    case 'hostname':
      if (positional(args).length > 0 || has(args, 'bF', '--boot', '--file')) return judge.note('destructive', 'hostname changes the machine’s name.');
      return;
    case 'read':
    case 'mapfile':
    case 'readarray': {
      if (name !== 'read' && has(args, 'C')) return judge.note('unknown', `${name} -C runs a command for each line.`);
      const risky = positional(args)
        .map((a) => (a.value === null ? `It reads into a variable named only at run time.` : shellVariableRisk(a.value)))
        .find((r) => r !== null);
      if (risky) return judge.note('unknown', risky);
      return;
    }
    case 'set':
    case 'history':
      if (name === 'history' && args.length > 0) return judge.note('unknown', 'history with options reads or writes history files.');
      return;
    case 'prettier':
    case 'eslint':
    case 'oxlint':
    case 'biome':
      if (has(args, 'w', '--write', '--fix')) return judge.note('write', `${name} rewrites files.`);
      return;
    case 'tsx':
    case 'ts-node':
      return judgeInterpreter(judge, name, args, depth);
    case 'systemctl':
    case 'service': {
      const sub = positional(args)[0]?.value ?? '';
      if (['status', 'is-active', 'is-enabled', 'list-units', 'list-unit-files', 'show'].includes(sub)) return;
      return judge.note('destructive', `${name} ${sub} changes system services.`);
    }
    case 'crontab':
      if (has(args, 'l')) return;
      return judge.note('destructive', 'crontab changes scheduled jobs.');
    default:
      if (BUILDERS.has(name)) {
        if (name === 'make' && has(args, 'E', '--eval')) return judge.note('unknown', 'make --eval runs makefile text given on the line.');
        if (has(args, '', '--version', '--noEmit', '--help')) return;
        return judge.note('write', `${name} builds or tests inside the workspace.`);
      }
      if (name.startsWith('mkfs')) return judge.note('destructive', `${name} formats a device.`);
      return judge.note('unknown', `${name} is not a command Amber knows how to judge.`);
  }
}

function outputFile(judge: ShellJudge, reason: string): void {
  judge.noAlways(OUTPUT_FILE);
  judge.note('write', reason);
}

/** `echo`, `printf`, `date`…: their words are text; `printf -v` sets a variable and `date -s` the clock. */
function textCommand(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (name === 'printf') {
    const target = optionValues(args, 'v')[0];
    const risk = target === undefined ? null : target.value === null ? 'printf -v sets a variable named only at run time.' : shellVariableRisk(target.value);
    if (risk) return judge.note('unknown', risk);
  }
  if (name === 'date') {
    if (has(args, 's', '--set')) return judge.note('destructive', 'date -s changes the machine’s clock.');
    for (const f of optionValues(args, 'fr', '--file', '--reference')) judge.arg(f, 'read');
  }
}

/** Checks every argument in a path position: all but a leading pattern and options' own words. */
function checkPaths(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (NO_PATHS.has(name)) return;
  if (name === 'jq' || name === 'yq') return jqPaths(judge, args);
  const written = writtenArgs(name, args);
  let skipPattern = PATTERN_FIRST.has(name) && !has(args, 'ef', '--regexp', '--file');
  for (const [i, a] of args.entries()) {
    if (PATTERN_FIRST.has(name) && ['-e', '--regexp'].includes(args[i - 1]?.value ?? '')) continue;
    if (skipPattern && !isOption(a)) {
      skipPattern = false;
      continue;
    }
    // `[ -n "$x" ]` tests a value: only literal words are looked at as paths.
    if ((name === 'test' || name === '[') && a.value === null) continue;
    // `ln -s`: the target is read from the link's folder, judged where the link is recorded (links()).
    if (name === 'ln' && !written.has(a) && !isOption(a) && has(args, 's', '--symbolic')) continue;
    judge.arg(a, written.has(a) ? 'write' : 'read');
  }
  // Values given inside an option (`-o../out`, `--output=x`) are not arguments of their own.
  for (const w of written) if (!args.includes(w)) judge.arg(w, 'write');
}

/** jq's (and yq's) words: the filter, `--arg name value` pairs, `--rawfile name file`, then input files (yq -i writes them). */
function jqPaths(judge: ShellJudge, args: readonly ShellArg[]): void {
  let filter = !has(args, 'f', '--from-file');
  const inPlace = has(args, 'i', '--inplace');
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === '--args' || v === '--jsonargs') return;
    if (v === '--arg' || v === '--argjson') {
      i += 2;
      continue;
    }
    if (v === '--rawfile' || v === '--slurpfile') {
      i += 2;
      if (args[i]) judge.arg(args[i]!, 'read');
      continue;
    }
    if (v === '--indent') {
      i++;
      continue;
    }
    if (isOption(a)) {
      if (/^-(f|L)$|^--(from-file|library-path)$/.test(v!) && args[i + 1]) judge.arg(args[++i]!, 'read');
      continue;
    }
    if (filter) {
      filter = false;
      continue;
    }
    judge.arg(a, inPlace ? 'write' : 'read');
  }
}

/** The arguments a command writes; its other path arguments are read. */
function writtenArgs(name: string, args: readonly ShellArg[]): Set<ShellArg> {
  const pos = positional(args);
  if (WRITE_ALL.has(name) || name === 'rm') return new Set(pos);
  if (BUILDERS.has(name))
    return new Set(optionValues(args, name === 'make' ? '' : 'o', '--output', '--outfile', '--outdir', '--out-dir', '--outDir', '--outFile'));
  if (WRITE_LAST.has(name)) {
    const target = optionValues(args, 't', '--target-directory');
    if (target.length > 0) return new Set(target);
    if (name === 'install' && has(args, 'd', '--directory')) return new Set(pos);
    return new Set(pos.length > 1 ? [pos[pos.length - 1]!] : name === 'ln' ? [] : pos);
  }
  if (name === 'patch') return new Set([...pos.slice(0, 1), ...optionValues(args, 'o', '--output')]);
  if (name === 'sort' || name === 'tree') return new Set(optionValues(args, 'o', '--output'));
  if ((name === 'uniq' || name === 'xxd') && pos.length > 1) return new Set([pos[1]!]);
  return new Set();
}

function writes(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  const pos = positional(args);
  if (name === 'ln' || name === 'mv' || name === 'cp') links(judge, name, args);
  if (pos.some((a) => a.value === null && !a.found && a.expands === undefined)) return judge.note('unknown', `${name} writes to paths known only at run time.`);
  if (name === 'chmod' || name === 'chown' || name === 'chgrp') {
    if (has(args, 'R', '--recursive')) return judge.note('destructive', `${name} -R changes a whole tree.`);
  }
  judge.note('write', `${name} changes files in the workspace.`);
}

/**
 * Links the line makes, so that later paths through them are judged where they lead: `ln -s` (the target
 * read from the link's folder), `ln` (a hard link: the same file), and `mv`/`cp` of something that is
 * itself a link or lies under one (judged where the source leads).
 */
function links(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  const pos = positional(args).filter((a) => a.value !== null);
  const into = optionValues(args, 't', '--target-directory')[0]?.value ?? undefined;
  const kind = name === 'ln' ? (has(args, 's', '--symbolic') ? 'symbolic' : 'hard') : has(args, 's', '--symbolic-link') && name === 'cp' ? 'symbolic' : 'moved';
  if (name === 'ln' && pos.length === 1 && into === undefined) {
    judge.path(pos[0]!.value!, 'read');
    return judge.link(pos[0]!.value!, base(pos[0]!.value!), kind);
  }
  const dest = into ?? pos[pos.length - 1]?.value;
  const sources = into !== undefined ? pos : pos.slice(0, -1);
  if (dest === undefined || dest === null) return;
  for (const s of sources) {
    // The destination may be the link's own name or a folder it goes into: both are kept.
    const names = [...(into === undefined && sources.length === 1 ? [dest] : []), `${dest.replace(/\/+$/, '')}/${base(s.value!)}`];
    for (const at of names) {
      judge.link(s.value!, at, kind);
      // A relative symbolic target is read from the link's folder.
      if (kind === 'symbolic') judge.path(s.value!.startsWith('/') || s.value!.startsWith('~') ? s.value! : join(dirname(at), s.value!), 'read');
    }
  }
}

function ddPaths(judge: ShellJudge, args: readonly ShellArg[]): void {
  for (const a of args) {
    if (a.value === null) judge.arg(a, 'read');
    else if (a.value.startsWith('of=')) {
      judge.path(a.value.slice(3), 'write');
      judge.noAlways(OUTPUT_FILE);
    } else if (a.value.startsWith('if=')) judge.path(a.value.slice(3), 'read');
  }
}

function find(judge: ShellJudge, name: string, args: readonly ShellArg[], again: (n: string, a: readonly ShellArg[]) => void): void {
  const vals = values(args);
  let started = name !== 'find';
  let patternSkipped = name === 'find';
  for (let i = 0; i < args.length; i++) {
    const v = vals[i]!;
    const a = args[i]!;
    if (name === 'find' && !started && (v.startsWith('-') || v === '(' || v === '!') && a.value !== null) started = true;
    if (!started) {
      judge.arg(a, 'read');
      continue;
    }
    if (v === '-delete') return judge.note('destructive', `${name} -delete deletes every file it finds.`);
    if (/^-(newer|anewer|cnewer|samefile|files0-from)$/.test(v) || (name !== 'find' && /^--(search-path|base-directory|ignore-file)$/.test(v))) {
      if (args[i + 1]) judge.arg(args[++i]!, 'read');
      continue;
    }
    if (/^-(fprint0?|fprintf|fls)$/.test(v)) {
      if (args[i + 1]) judge.arg(args[i + 1]!, 'write');
      judge.noAlways(OUTPUT_FILE);
      judge.note('write', `${name} ${v} writes a file.`);
      i += v === '-fprintf' ? 2 : 1;
      continue;
    }
    if (/^(-exec|-execdir|-ok|-okdir|-x|--exec|-X|--exec-batch)$/.test(v)) {
      let end = vals.findIndex((w, j) => j > i && (w === ';' || w === '+'));
      if (end < 0) end = vals.length;
      const words = args.slice(i + 1, end);
      const run = words[0]?.value;
      if (run === null || run === undefined) return judge.note('unknown', `${name} ${v} runs a command that cannot be judged.`);
      if (INTERPRETERS.has(run)) {
        // A script with the found name pasted into it runs whatever the name says: judged, but never trusted.
        if (words.some(placeholder)) judge.note('unknown', `${name} ${v} pastes file names into ${run}'s code, which cannot be judged.`);
        again(run, words.slice(1));
      } else
        again(
          run,
          words.slice(1).map((c) => (placeholder(c) ? { value: null, raw: c.raw, glob: false, found: true } : c)),
        );
      i = end;
      continue;
    }
    // fd: the first positional is the pattern, the rest are folders to search.
    if (name !== 'find' && !isOption(a)) {
      if (!patternSkipped) {
        patternSkipped = true;
        continue;
      }
      judge.arg(a, 'read');
    }
  }
}
