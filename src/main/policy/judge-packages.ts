import { has, positional, type ShellArg, type ShellJudge, word } from './shell-args.ts';

/** Tools `npx tsc` may name: judged as if run directly. Any other package may be downloaded and run. */
export const NPX_TOOLS = new Set('tsc vitest jest prettier eslint oxlint biome tsx vite playwright'.split(' '));
const SYSTEM_PACKAGERS = new Set('apt apt-get aptitude yum dnf zypper pacman apk brew snap flatpak port dpkg apt-cache rpm'.split(' '));
const SYSTEM_QUERIES = new Set(
  'list show search info policy depends rdepends madison showpkg pkgnames stats -l -L -s -q -Q -Qi -Ql -Ss --list --listfiles --status --search --query'.split(
    ' ',
  ),
);

/** Whether `name` is a package manager judged here. */
export function isPackageManager(name: string): boolean {
  return ['npm', 'pnpm', 'yarn', 'bun', 'npx', 'pnpx', 'bunx', 'pip', 'pip3', 'cargo', 'go'].includes(name) || SYSTEM_PACKAGERS.has(name);
}

/**
 * Judges a package manager. Installing downloads packages (network: 'write', see judge-network.ts) and runs
 * their install scripts inside the workspace; asking the registry (`npm view`) is network too, so never
 * read-only. Changing the machine's packages (apt, brew) or publishing is destructive. Commands that name
 * package.json's contents (`npm pkg set`) write a protected path.
 */
export function judgePackages(
  judge: ShellJudge,
  name: string,
  args: readonly ShellArg[],
  judgeCommand: (name: string, args: readonly ShellArg[]) => void,
): void {
  for (const a of args) judge.arg(a, 'read');
  const sub = positional(args)[0]?.value ?? '';
  if (SYSTEM_PACKAGERS.has(name)) {
    if (name === 'apt-cache' || SYSTEM_QUERIES.has(sub) || SYSTEM_QUERIES.has(args[0]?.value ?? '')) return;
    if (args.length === 1 && ['--version', '--help', '-v', '-V'].includes(args[0]!.value ?? '')) return;
    return judge.note('destructive', `${name} ${sub} changes the machine’s packages.`);
  }
  switch (name) {
    case 'npx':
    case 'pnpx':
    case 'bunx': {
      const tool = positional(args)[0]?.value;
      if (tool && NPX_TOOLS.has(tool)) return judgeCommand(tool, args.slice(args.findIndex((a) => a.value === tool) + 1));
      return judge.note('unknown', `${name} may download and run a package, which cannot be judged.`);
    }
    case 'pip':
    case 'pip3':
      if (['list', 'show', 'freeze', 'check', 'help', ''].includes(sub) || has(args, 'V', '--version')) return;
      return judge.note('write', `${name} ${sub} changes installed packages, downloading them from the network.`);
    case 'cargo':
    case 'go': {
      if (['version', 'env', 'help', ''].includes(sub) || has(args, 'V', '--version')) return;
      if (sub === 'publish') return judge.note('destructive', `${name} publish publishes a package.`);
      if (sub === 'install') return judge.note('unknown', `${name} install installs programs outside the workspace.`);
      return judge.note('write', `${name} ${sub} builds, tests or fetches for the project.`);
    }
    default:
      return npm(judge, name, args, judgeCommand);
  }
}

const NPM_LOCAL_READS = ['ls', 'list', 'll', 'la', 'help', 'why', 'explain', 'root', 'prefix', 'bin', 'help-search'];
const NPM_REGISTRY_READS = [
  'view',
  'v',
  'info',
  'show',
  'outdated',
  'search',
  's',
  'find',
  'ping',
  'whoami',
  'doctor',
  'audit',
  'fund',
  'owner',
  'access',
  'team',
  'dist-tag',
  'org',
];
const NPM_WRITES = [
  'install',
  'i',
  'ci',
  'add',
  'remove',
  'rm',
  'uninstall',
  'un',
  'update',
  'up',
  'upgrade',
  'test',
  't',
  'run',
  'run-script',
  'start',
  'stop',
  'restart',
  'build',
  'pack',
  'dedupe',
  'prune',
  'rebuild',
  'create',
  'fmt',
  'lint',
  'typecheck',
  'check',
  'link',
  'unlink',
];

function npm(judge: ShellJudge, name: string, args: readonly ShellArg[], judgeCommand: (name: string, args: readonly ShellArg[]) => void): void {
  if (has(args, 'g', '--global', '--location=global')) return judge.note('destructive', `${name} -g changes packages outside the workspace.`);
  if (name === 'bun' && has(args, 'ep', '--eval', '--print')) {
    judge.noAlways('An interpreter runs whatever code it is given, so an “always” answer is never kept for it.');
    return judge.note('unknown', 'bun runs inline code, which cannot be judged.');
  }
  const pos = positional(args);
  const sub = pos[0]?.value ?? (name === 'yarn' ? 'install' : '');
  if (sub === '' && has(args, 'v', '--version', '--help')) return;
  if (NPM_LOCAL_READS.includes(sub)) return;
  if (sub === 'version' && pos.length === 1) return;
  if (sub === 'config' || sub === 'set' || sub === 'get') {
    if (['get', 'list', 'ls'].includes(pos[1]?.value ?? '') || sub === 'get') return;
    judge.noAlways('It changes the package manager’s configuration, so an “always” answer is never kept for it.');
    return judge.note('unknown', `${name} config changes settings outside the workspace, which can make it run other programs.`);
  }
  if (sub === 'pkg' || sub === 'set-script' || sub === 'init' || sub === 'version') {
    if (sub === 'pkg' && pos[1]?.value === 'get') return;
    judge.arg(word('package.json'), 'write');
    return judge.note('write', `${name} ${sub} changes package.json.`);
  }
  if (sub === 'audit')
    return has(args, '', '--fix') || pos[1]?.value === 'fix'
      ? judge.note('write', `${name} audit fix changes dependencies.`)
      : judge.note('write', `${name} audit asks the registry over the network.`);
  if (NPM_REGISTRY_READS.includes(sub)) return judge.note('write', `${name} ${sub} asks the package registry over the network.`);
  if (sub === 'publish' || sub === 'unpublish' || sub === 'deprecate') return judge.note('destructive', `${name} ${sub} changes a published package.`);
  if (sub === 'exec' || sub === 'dlx' || sub === 'x') {
    const tool = pos[1]?.value;
    if (tool && NPX_TOOLS.has(tool)) return judgeCommand(tool, args.slice(args.findIndex((a) => a.value === tool) + 1));
    return judge.note('unknown', `${name} ${sub} may download and run a package, which cannot be judged.`);
  }
  if (NPM_WRITES.includes(sub)) return judge.note('write', `${name} ${sub} runs project scripts or changes dependencies in the workspace.`);
  judge.note('unknown', `${name} ${sub} is not a ${name} command Amber knows how to judge.`);
}
