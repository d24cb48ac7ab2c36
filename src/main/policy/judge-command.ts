import { has, isOption, positional, type ShellArg, type ShellJudge, values } from './shell-args.ts';
import { judgeGit } from './judge-git.ts';

/** Commands that only read (their path arguments are still checked). */
const READ_ONLY = new Set(
  (
    'ls cat head tail wc grep egrep fgrep rg ag ack pwd file stat du df tree cut tr diff cmp comm basename dirname realpath readlink ' +
    'whoami id groups uname hostname arch nproc printenv true false test [ nl od xxd hexdump strings md5sum sha1sum sha256sum ' +
    'sha512sum cksum b2sum column fold fmt paste join rev tac less more bat jq yq ps pgrep free uptime lsof cd pushd popd ' +
    'set shopt read exit return history locale tput clear man help info : unset wait'
  ).split(' '),
);
/** Commands whose arguments are text, never paths. */
const NOT_PATHS = new Set('echo printf which type whereis date cal expr seq sleep'.split(' '));
/** Commands whose first positional argument is a pattern or script, not a path. */
const PATTERN_FIRST = new Set('grep egrep fgrep rg ag ack sed awk gawk jq yq'.split(' '));
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
  ssh: 'ssh runs commands on another machine.',
  scp: 'scp copies files to or from another machine.',
  sftp: 'sftp connects to another machine.',
  nc: 'nc opens network connections.',
  telnet: 'telnet opens network connections.',
  open: 'open hands a file to another program.',
  'xdg-open': 'xdg-open hands a file to another program.',
};
const FILE_WRITERS = new Set('mkdir touch cp mv ln install tee truncate rmdir patch split csplit mktemp'.split(' '));
const BUILDERS = new Set('make cmake ninja gradle mvn tsc vitest jest pytest mocha tsx vite webpack rollup esbuild gcc g++ cc clang javac rustc'.split(' '));
const SHELLS = new Set('sh bash zsh dash ksh fish'.split(' '));
const NPX_TOOLS = new Set('tsc vitest jest prettier eslint oxlint biome tsx vite playwright'.split(' '));

/** Judges one command by its name and arguments; wrappers recurse into the command they run. */
export function judgeCommand(judge: ShellJudge, rawName: string, args: readonly ShellArg[], depth: number): void {
  if (rawName.includes('/') && !rawName.startsWith('/')) return judge.note('unknown', `It runs the program file ${rawName}, which cannot be judged.`);
  const name = rawName.slice(rawName.lastIndexOf('/') + 1);
  if (name in DESTRUCTIVE) return judge.note('destructive', DESTRUCTIVE[name]!);
  if (name in UNKNOWN) return judge.note('unknown', UNKNOWN[name]!);
  checkPaths(judge, name, args);
  const sub = positional(args)[0]?.value ?? '';
  const rest = (from: number) => judgeCommand(judge, args[from]?.value ?? '', args.slice(from + 1), depth);
  const wrapped = (from: number) => {
    if (from >= args.length) return;
    if (args[from]!.value === null) return judge.note('unknown', `It runs a command named only at run time (${args[from]!.raw}).`);
    rest(from);
  };
  if ((name === 'cd' || name === 'pushd') && args.some((a) => a.value === null || a.value === '-')) {
    return judge.note('unknown', `${name} moves to a folder known only at run time, so later paths cannot be judged.`);
  }
  if (name === 'rg' && has(args, '', '--pre')) return judge.note('unknown', 'rg --pre runs a program on every file.');
  if (READ_ONLY.has(name) || NOT_PATHS.has(name)) return;
  if (FILE_WRITERS.has(name)) return writes(judge, name, args);
  if (BUILDERS.has(name)) {
    if (has(args, '', '--version', '--noEmit', '--help')) return;
    return judge.note('write', `${name} builds or tests inside the workspace.`);
  }
  if (SHELLS.has(name)) return shell(judge, name, args, depth);
  switch (name) {
    case 'rm': {
      if (has(args, 'rRd', '--recursive', '--dir')) return judge.note('destructive', 'rm -r deletes whole folders.');
      const targets = positional(args);
      if (targets.some((a) => a.glob)) return judge.note('destructive', 'rm with a wildcard deletes files chosen at run time.');
      if (targets.some((a) => a.value === null)) return judge.note('destructive', 'rm deletes files named only at run time.');
      return judge.note('write', `rm deletes ${targets.map((a) => a.value).join(', ') || 'files'}.`);
    }
    case 'chmod':
    case 'chown':
    case 'chgrp':
      if (has(args, 'R', '--recursive')) return judge.note('destructive', `${name} -R changes a whole tree.`);
      return writes(judge, name, args);
    case 'kill':
      if (has(args, 'l', '--list')) return;
      return judge.note('destructive', 'kill stops processes that may not belong to this command.');
    case 'env': {
      if (has(args, 'S', '--split-string')) return judge.note('unknown', 'env -S runs a command line given as text, which cannot be judged.');
      let i = 0;
      while (i < args.length && (isOption(args[i]!) || (args[i]!.value ?? '').includes('='))) {
        if (args[i]!.value === '-u' || args[i]!.value === '-C') i++;
        i++;
      }
      return wrapped(i);
    }
    case 'nice':
    case 'ionice':
    case 'stdbuf':
    case 'timeout': {
      let i = 0;
      while (i < args.length && isOption(args[i]!)) i += /^-[nckos]$/.test(args[i]!.value!) ? 2 : 1;
      if (name === 'timeout') i++;
      return wrapped(i);
    }
    case 'nohup':
    case 'time':
    case 'exec':
    case 'builtin':
      return wrapped(0);
    case 'command':
      if (has(args, 'vV')) return;
      return wrapped(0);
    case 'xargs': {
      let i = 0;
      while (i < args.length && isOption(args[i]!)) i += /^-[IinPLdEsa]$/.test(args[i]!.value!) ? 2 : 1;
      if (i >= args.length) return;
      const cmd = args[i]!.value;
      if (cmd === null) return judge.note('unknown', 'xargs runs a command named only at run time.');
      return judgeCommand(judge, cmd, [...args.slice(i + 1), { value: null, raw: '(input)', glob: false }], depth);
    }
    case 'find':
    case 'fd':
      return find(judge, name, args, depth);
    case 'sed': {
      const scripts = sedScripts(args);
      if (scripts.some((s) => s === null || SED_WRITES_OR_RUNS.test(s) || SED_S_FLAGS.test(s))) return judge.note('unknown', 'The sed program writes files or runs commands (w, W, e), which cannot be judged.');
      if (has(args, 'f', '--file')) return judge.note('unknown', 'sed -f runs a program file, which cannot be judged.');
      if (has(args, 'i', '--in-place')) return judge.note('write', 'sed -i edits files in place.');
      return;
    }
    case 'awk':
    case 'gawk': {
      if (has(args, 'f')) return judge.note('unknown', `${name} -f runs a program file, which cannot be judged.`);
      const program = positional(args)[0];
      if (program && (program.value === null || /system\s*\(|\||>|getline/.test(program.value))) return judge.note('unknown', `The ${name} program runs commands or writes files.`);
      return;
    }
    case 'sort':
      if (has(args, '', '--compress-program')) return judge.note('unknown', 'sort --compress-program runs another program.');
      if (has(args, 'o', '--output')) return judge.note('write', 'sort -o writes a file.');
      return;
    case 'uniq':
      if (positional(args).length > 1) return judge.note('write', 'uniq writes its output file.');
      return;
    case 'base64':
    case 'gzip':
    case 'gunzip':
    case 'zip':
    case 'unzip':
    case 'tar':
      if (has(args, '', '--to-command', '--checkpoint-action', '--use-compress-program', '--info-script', '--new-volume-script', '--unzip-command') || (name === 'tar' && has(args, 'IF')) || (name === 'zip' && args.some((a) => a.value === '-TT'))) {
        return judge.note('unknown', `${name} is told to run another program, which cannot be judged.`);
      }
      if (name === 'tar' && has(args, 't', '--list') && !has(args, 'xc', '--extract', '--create')) return;
      if (name === 'base64') return;
      return writes(judge, name, args);
    case 'rsync':
      if (has(args, '', '--delete', '--remove-source-files')) return judge.note('destructive', 'rsync --delete removes files.');
      return writes(judge, name, args);
    case 'git':
      return judgeGit(judge, args);
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
      return npm(judge, name, args, depth);
    case 'npx':
    case 'pnpx':
    case 'bunx': {
      const tool = positional(args)[0]?.value;
      if (tool && NPX_TOOLS.has(tool)) return judgeCommand(judge, tool, args.slice(args.findIndex((a) => a.value === tool) + 1), depth);
      return judge.note('unknown', `${name} may download and run a package, which cannot be judged.`);
    }
    case 'node':
    case 'deno':
    case 'python':
    case 'python3':
    case 'perl':
    case 'ruby':
    case 'php':
      return interpreter(judge, name, args);
    case 'pip':
    case 'pip3':
      if (['list', 'show', 'freeze', 'check', 'help', ''].includes(sub) || has(args, 'V', '--version')) return;
      return judge.note('write', `${name} ${sub} changes installed packages.`);
    case 'cargo':
    case 'go': {
      if (['version', 'env', 'list', 'doc', 'metadata', 'tree', 'search', 'help', ''].includes(sub) || has(args, 'V', '--version')) return;
      if (sub === 'publish') return judge.note('destructive', `${name} publish publishes a package.`);
      if (sub === 'install') return judge.note('unknown', `${name} install installs outside the workspace.`);
      return judge.note('write', `${name} ${sub} builds or changes the project.`);
    }
    case 'prettier':
    case 'eslint':
    case 'oxlint':
    case 'biome':
      if (has(args, 'w', '--write', '--fix')) return judge.note('write', `${name} rewrites files.`);
      return;
    case 'curl':
    case 'wget':
      return download(judge, name, args);
    case 'systemctl':
    case 'service':
      if (['status', 'is-active', 'is-enabled', 'list-units', 'list-unit-files', 'show'].includes(sub)) return;
      return judge.note('destructive', `${name} ${sub} changes system services.`);
    case 'crontab':
      if (has(args, 'l')) return;
      return judge.note('destructive', 'crontab changes scheduled jobs.');
    default:
      if (name.startsWith('mkfs')) return judge.note('destructive', `${name} formats a device.`);
      return judge.note('unknown', `${name} is not a command Amber knows how to judge.`);
  }
}

function checkPaths(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (NOT_PATHS.has(name) || name === 'git') return;
  let skipPattern = PATTERN_FIRST.has(name) && !has(args, 'ef', '--regexp', '--file', '--expression');
  const mode = FILE_WRITERS.has(name) || name === 'rm' ? 'write' : 'read';
  for (const [i, a] of args.entries()) {
    if (PATTERN_FIRST.has(name) && ['-e', '--regexp', '--expression'].includes(args[i - 1]?.value ?? '')) continue;
    if (a.value === null) {
      judge.dynamicPath(a.raw);
      continue;
    }
    if (skipPattern && !isOption(a)) {
      skipPattern = false;
      continue;
    }
    judge.path(a.value, mode);
  }
}

/** sed commands that write a file (`w`, `W`) or run one (`e`). */
const SED_WRITES_OR_RUNS = /(^|[;{}\n]|[/\d$])\s*[wWe](\s|$)/;
/** An `s` command with the `w` or `e` flag (`s/a/b/w out`, `s/a/b/e`). */
const SED_S_FLAGS = /s([^\w\s]).*?\1.*?\1[gpiImM\d]*[we]/;

/** The sed programs in the arguments: every -e value, else the first positional; null when not literal. */
function sedScripts(args: readonly ShellArg[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-e' || v === '--expression') out.push(args[++i]?.value ?? null);
    else if (v?.startsWith('--expression=')) out.push(v.slice('--expression='.length));
  }
  if (out.length > 0) return out;
  const first = positional(args)[0];
  return first ? [first.value] : [];
}

function writes(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (positional(args).some((a) => a.value === null)) return judge.note('unknown', `${name} writes to paths known only at run time.`);
  judge.note('write', `${name} changes files in the workspace.`);
}

function shell(judge: ShellJudge, name: string, args: readonly ShellArg[], depth: number): void {
  const c = args.findIndex((a) => a.value !== null && /^-[a-z]*c[a-z]*$/.test(a.value));
  if (c >= 0) {
    const script = args[c + 1];
    if (!script || script.value === null) return judge.note('unknown', `${name} -c runs text known only at run time.`);
    return judge.line(script.value, depth + 1);
  }
  if (has(args, '', '--version')) return;
  const file = positional(args)[0];
  judge.note('unknown', file ? `${name} runs the script ${file.raw}, which cannot be judged.` : `${name} runs commands from its input, which cannot be judged.`);
}

function interpreter(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  const first = args[0]?.value;
  if (first === undefined) return judge.note('unknown', `${name} runs code from its input, which cannot be judged.`);
  if (first === '--version' || first === '-v' || first === '-V' || first === '--help' || first === '-h') return;
  if (has(args, 'ecp', '--eval', '--print')) return judge.note('unknown', `${name} runs inline code, which cannot be judged.`);
  if (first === '-m') {
    const mod = args[1]?.value;
    if (mod === 'pip' && ['list', 'show', 'freeze'].includes(args[2]?.value ?? '')) return;
    return judge.note('write', `${name} -m ${mod ?? ''} runs a module in the workspace.`);
  }
  if (first === null) return judge.note('unknown', `${name} runs a program named only at run time.`);
  judge.note('write', `${name} runs the program ${first} in the workspace.`);
}

function find(judge: ShellJudge, name: string, args: readonly ShellArg[], depth: number): void {
  const vals = values(args);
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i]!;
    if (v === '-delete') return judge.note('destructive', `${name} -delete deletes every file it finds.`);
    if (/^-f(print0?|printf|ls)$/.test(v)) judge.note('write', `${name} ${v} writes a file.`);
    if (/^(-exec|-execdir|-ok|-okdir|-x|--exec|-X|--exec-batch)$/.test(v)) {
      let end = vals.findIndex((w, j) => j > i && (w === ';' || w === '+'));
      if (end < 0) end = vals.length;
      const cmd = args.slice(i + 1, end).map((a) => (a.value === '{}' ? { value: null, raw: '{}', glob: false } : a));
      const run = cmd[0]?.value;
      if (run === null || run === undefined) return judge.note('unknown', `${name} ${v} runs a command that cannot be judged.`);
      judgeCommand(judge, run, cmd.slice(1), depth);
      i = end;
    }
  }
}

function download(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  const vals = values(args);
  if (has(args, 'K', '--config') || (name === 'wget' && has(args, 'e', '--execute'))) return judge.note('unknown', `${name} reads its options from elsewhere, which cannot be judged.`);
  if (has(args, 'dFT', '--data', '--data-raw', '--data-binary', '--form', '--upload-file', '--post-data', '--post-file')) {
    return judge.note('unknown', `${name} sends data to a server.`);
  }
  const method = vals.findIndex((v) => v === '-X' || v === '--request' || v === '--method');
  if (method >= 0 && !['GET', 'HEAD'].includes((vals[method + 1] ?? '').toUpperCase())) return judge.note('unknown', `${name} sends a ${vals[method + 1]} request to a server.`);
  if (name === 'curl') {
    if (has(args, 'oO', '--output', '--remote-name')) return judge.note('write', 'curl saves a download in a file.');
    return;
  }
  if (has(args, '', '--spider') || vals.some((v, i) => (v === '-O' || v === '-qO' || v === '--output-document') && vals[i + 1] === '-') || vals.some((v) => v === '-qO-' || v === '-O-')) return;
  judge.note('write', 'wget saves a download in a file.');
}

function npm(judge: ShellJudge, name: string, args: readonly ShellArg[], depth: number): void {
  if (has(args, 'g', '--global', '--location=global')) return judge.note('destructive', `${name} -g changes packages outside the workspace.`);
  const sub = positional(args)[0]?.value ?? (name === 'yarn' ? 'install' : '');
  if (sub === '' && has(args, 'v', '--version', '--help')) return;
  if (['ls', 'list', 'view', 'info', 'show', 'outdated', 'help', 'why', 'explain', 'search', 'root', 'prefix', 'bin', 'whoami', 'ping', 'doctor', 'version'].includes(sub) && positional(args).length <= (sub === 'version' ? 1 : 99)) return;
  if (sub === 'audit') return has(args, '', '--fix') || positional(args)[1]?.value === 'fix' ? judge.note('write', `${name} audit fix changes dependencies.`) : undefined;
  if (sub === 'config') return ['get', 'list', 'ls'].includes(positional(args)[1]?.value ?? '') ? undefined : judge.note('unknown', `${name} config changes settings outside the workspace.`);
  if (sub === 'publish' || sub === 'unpublish' || sub === 'deprecate') return judge.note('destructive', `${name} ${sub} changes a published package.`);
  if (sub === 'exec' || sub === 'dlx' || sub === 'x') {
    const tool = positional(args)[1]?.value;
    if (tool && NPX_TOOLS.has(tool)) return judgeCommand(judge, tool, [], depth);
    return judge.note('unknown', `${name} ${sub} may download and run a package, which cannot be judged.`);
  }
  const writing = ['install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'test', 't', 'run', 'run-script', 'start', 'build', 'pack', 'dedupe', 'prune', 'init', 'rebuild', 'create', 'fmt', 'lint', 'typecheck', 'check'];
  if (writing.includes(sub)) return judge.note('write', `${name} ${sub} runs project scripts or changes dependencies in the workspace.`);
  judge.note('unknown', `${name} ${sub} is not a ${name} command Amber knows how to judge.`);
}
