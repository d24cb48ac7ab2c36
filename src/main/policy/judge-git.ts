import { isAbsolute, join } from 'node:path';
import { has, isOption, optionValues, positional, type ShellArg, type ShellJudge, word } from './shell-args.ts';

const GIT_READ = new Set(
  'status log diff show blame annotate shortlog describe rev-parse rev-list ls-files ls-tree grep cat-file version whatchanged show-ref for-each-ref name-rev merge-base count-objects var check-ignore check-attr check-ref-format cherry show-branch diff-tree diff-files diff-index range-diff verify-commit verify-tag fsck'.split(
    ' ',
  ),
);
const GIT_WRITE = new Set(
  'add commit merge rebase cherry-pick revert init mv am apply worktree notes bisect switch gc format-patch maintenance sparse-checkout prune repack pack-refs'.split(
    ' ',
  ),
);
/** Global options that change nothing but how git reads paths or prints. */
const SAFE_GLOBAL =
  /^(--no-pager|--no-replace-objects|--literal-pathspecs|--glob-pathspecs|--noglob-pathspecs|--icase-pathspecs|--no-optional-locks|--no-lazy-fetch|--no-advice|--bare|-P|--html-path|--man-path|--info-path|--version|--help|-v|-h)$/;
/** Options whose value is text (a message, a count, a format), never a path: a run-time value is fine. */
const TEXT_OPTIONS =
  /^(-m|--message|-n|--max-count|--author|--committer|--date|--since|--until|--after|--before|--grep|--format|--pretty|-S|-G|-b|-B|-c|--branch)$/;
const RUNS_PROGRAMS = 'It sets what git runs, so an “always” answer is never kept for it.';
const OUTPUT_FILE = 'It names an output file, so an “always” answer is never kept for it.';

/** Subcommands that change the working tree or other files, but not the repository's own `.git` folder. */
const WORKTREE_ONLY = new Set(['clone', 'format-patch', 'archive', 'clean', 'ls-remote', ...GIT_READ]);

/**
 * Judges a git command line (the words after `git`). A subcommand that changes the repository (commit, add,
 * a branch, a stash, a fetch…) also names `.git` as a write: the sandbox keeps `.git` read-only, like every
 * protected path, so such a line asks, and the user's yes makes `.git` writable for that one call. Lines
 * that only change the working tree (`git restore`, `git apply` without `--index`) do not.
 */
export function judgeGit(judge: ShellJudge, args: readonly ShellArg[]): void {
  let changes = false;
  const watching: ShellJudge = {
    note: (cls, reason) => {
      if (cls === 'write' || cls === 'destructive') changes = true;
      judge.note(cls, reason);
    },
    noAlways: (reason) => judge.noAlways(reason),
    path: (value, mode, glob) => judge.path(value, mode, glob),
    arg: (arg, mode) => judge.arg(arg, mode),
    cd: (name, cdArgs) => judge.cd(name, cdArgs),
    link: (target, name, kind) => judge.link(target, name, kind),
    line: (text, depth) => judge.line(text, depth),
    get inputIsPaths() {
      return judge.inputIsPaths;
    },
  };
  const seen: Seen = { dir: null, sub: null, worktreeOnly: false };
  judgeGitCommand(watching, args, seen);
  if (!changes || seen.sub === null || WORKTREE_ONLY.has(seen.sub) || seen.worktreeOnly) return;
  judge.path(seen.dir === null ? '.git' : join(seen.dir, '.git'), 'write');
}

/** What judging the line found out: its folder (`-C`), its subcommand, and whether it touches only the working tree. */
interface Seen {
  dir: string | null;
  sub: string | null;
  worktreeOnly: boolean;
}

function judgeGitCommand(judge: ShellJudge, args: readonly ShellArg[], seen: Seen): void {
  let dir: string | null = null;
  let i = 0;
  for (; i < args.length && isOption(args[i]!); i++) {
    const v = args[i]!.value!;
    if (v === '-c' || v.startsWith('--config-env') || v.startsWith('--exec-path')) {
      judge.noAlways(RUNS_PROGRAMS);
      return judge.note('unknown', `git ${v} sets configuration or programs that can make git run other programs.`);
    }
    if (v === '-C') {
      const to = args[++i];
      if (!to) return judge.note('unknown', 'git -C names no folder.');
      judge.arg(to, 'read');
      if (to.value === null) return;
      dir = dir === null || isAbsolute(to.value) ? to.value : join(dir, to.value);
      continue;
    }
    if (/^--work-tree(=|$)/.test(v)) {
      const value = v.includes('=') ? word(v.slice(v.indexOf('=') + 1)) : args[++i];
      if (value) judge.arg(value, 'read');
      continue;
    }
    if (/^--(git-dir|namespace|super-prefix|attr-source)(=|$)/.test(v)) {
      const value = v.includes('=') ? word(v.slice(v.indexOf('=') + 1)) : args[++i];
      if (value) judge.arg(value, 'read');
      judge.noAlways(RUNS_PROGRAMS);
      return judge.note('unknown', `git ${v.replace(/=.*/, '')} names a repository whose configuration can make git run other programs.`);
    }
    if (v === '-p' || v === '--paginate') return judge.note('unknown', 'git --paginate runs a pager program.');
    if (!SAFE_GLOBAL.test(v)) return judge.note('unknown', `git ${v} is not a git option Amber knows how to judge.`);
  }
  const subArg = args[i];
  if (!subArg) return;
  const sub = subArg.value;
  if (sub === null) return judge.note('unknown', 'git runs a subcommand named only at run time.');
  const rest = args.slice(i + 1);
  seen.dir = dir;
  seen.sub = sub;
  seen.worktreeOnly =
    (sub === 'apply' && !has(rest, '', '--index', '--cached', '--3way')) ||
    (sub === 'restore' && !has(rest, 'S', '--staged')) ||
    (sub === 'checkout' && rest.some((a) => a.value === '--'));
  const at = (a: ShellArg): ShellArg =>
    dir === null || a.value === null || isAbsolute(a.value) || a.value.startsWith('~') || a.value.startsWith('-') ? a : word(join(dir, a.value));
  const pos = positional(rest);
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j]!;
    if (a.value === null && TEXT_OPTIONS.test(rest[j - 1]?.value ?? '')) continue;
    judge.arg(at(a), 'read');
  }
  if (
    has(rest, '', '--upload-pack', '--receive-pack', '--exec', '--ext-diff', '--open-files-in-pager') ||
    (['clone', 'init'].includes(sub) && has(rest, '', '--template')) ||
    (['fetch', 'pull', 'clone', 'ls-remote', 'archive'].includes(sub) && has(rest, 'u')) ||
    (sub === 'grep' && has(rest, 'O'))
  ) {
    judge.noAlways(RUNS_PROGRAMS);
    return judge.note('unknown', `git ${sub} is told which program to run, which cannot be judged.`);
  }
  if (pos.some((a) => a.value !== null && /^(ext|fd)::/.test(a.value))) {
    judge.noAlways(RUNS_PROGRAMS);
    return judge.note('unknown', `git ${sub} names a remote that runs a command (ext::), which cannot be judged.`);
  }
  if (
    (sub === 'submodule' && pos[0]?.value === 'foreach') ||
    (sub === 'bisect' && pos[0]?.value === 'run') ||
    (sub === 'rebase' && has(rest, 'xi', '--exec', '--interactive'))
  ) {
    return judge.note('unknown', `git ${sub} is told to run other commands, which cannot be judged.`);
  }
  const outputs = optionValues(rest, sub === 'format-patch' || sub === 'archive' ? 'o' : '', '--output', '--output-directory');
  for (const o of outputs) judge.arg(at(o), 'write');
  if (outputs.length > 0) {
    judge.noAlways(OUTPUT_FILE);
    judge.note('write', `git ${sub} writes its output to a file.`);
  }
  const force = has(rest, 'f', '--force', '--force-with-lease', '--force-if-includes', '--mirror', '--delete', '--prune');
  switch (sub) {
    case 'reset':
      if (has(rest, '', '--hard', '--merge', '--keep'))
        return judge.note('destructive', `git reset ${rest.map((a) => a.raw).join(' ')} throws away uncommitted work.`);
      return judge.note('write', 'git reset moves the branch or unstages changes.');
    case 'clean':
      if (has(rest, 'n', '--dry-run')) return;
      return judge.note('destructive', 'git clean deletes untracked files.');
    case 'push':
      judge.noAlways('It sends commits over the network, so an “always” answer is never kept for it.');
      if (force || pos.some((a) => a.value?.startsWith(':') || a.value?.startsWith('+')))
        return judge.note('destructive', 'git push --force rewrites or deletes history on the remote.');
      return judge.note('destructive', 'git push publishes commits to a remote, which cannot be taken back from here.');
    case 'fetch':
    case 'pull':
    case 'ls-remote':
      return judge.note('write', `git ${sub} fetches from a remote over the network.`);
    case 'clone':
      if (has(rest, 'c', '--config', '--separate-git-dir')) {
        judge.noAlways(RUNS_PROGRAMS);
        return judge.note('unknown', 'git clone -c sets configuration that can make git run other programs.');
      }
      if (pos.length >= 2) judge.arg(at(pos[pos.length - 1]!), 'write');
      return judge.note('write', 'git clone fetches a repository over the network.');
    case 'checkout':
      if (has(rest, 'bB', '--orphan')) return judge.note('write', 'git checkout -b creates a branch.');
      if (force || rest.some((a) => a.value === '--' || a.value === '.' || a.glob))
        return judge.note('destructive', 'git checkout of paths throws away uncommitted changes.');
      return judge.note('write', 'git checkout switches branches.');
    case 'restore':
      if (has(rest, 'S', '--staged') && !has(rest, 'W', '--worktree')) return judge.note('write', 'git restore --staged unstages changes.');
      return judge.note('destructive', 'git restore throws away uncommitted changes.');
    case 'switch':
      if (force || has(rest, '', '--discard-changes')) return judge.note('destructive', 'git switch --discard-changes throws away uncommitted changes.');
      return judge.note('write', 'git switch changes branches.');
    case 'branch':
      if (has(rest, 'D', '--delete') && (has(rest, 'D') || force)) return judge.note('destructive', 'git branch -D deletes a branch that may not be merged.');
      if (has(rest, '', '--edit-description')) return judge.note('unknown', 'git branch --edit-description runs an editor.');
      if (pos.length === 0 || has(rest, 'alvr', '--list', '--show-current', '--contains', '--merged', '--no-merged', '--all', '--remotes')) {
        if (!has(rest, 'dmMcC', '--delete', '--move', '--copy')) return;
      }
      return judge.note('write', 'git branch creates, renames or deletes a branch.');
    case 'tag':
      if (pos.length === 0 || has(rest, 'l', '--list')) return;
      if (has(rest, 'd', '--delete')) return judge.note('destructive', 'git tag -d deletes a tag.');
      return judge.note('write', 'git tag creates a tag.');
    case 'stash':
      if (['list', 'show'].includes(pos[0]?.value ?? '')) return;
      if (['drop', 'clear'].includes(pos[0]?.value ?? '')) return judge.note('destructive', `git stash ${pos[0]!.value} throws away stashed work.`);
      return judge.note('write', 'git stash saves or applies uncommitted changes.');
    case 'remote': {
      const action = pos[0]?.value ?? '';
      if (action === '' || action === 'get-url' || (action === 'show' && has(rest, 'n'))) return;
      if (action === 'show' || action === 'update' || action === 'prune') return judge.note('write', `git remote ${action} asks the remotes over the network.`);
      return judge.note('write', 'git remote changes the remotes.');
    }
    case 'submodule':
      return judge.note('write', `git submodule ${pos[0]?.value ?? ''} changes submodules, fetching them over the network.`.replace('  ', ' '));
    case 'config':
      return config(judge, rest, at);
    case 'archive':
      if (has(rest, '', '--remote')) {
        judge.noAlways(RUNS_PROGRAMS);
        return judge.note('unknown', 'git archive --remote asks another machine to run git.');
      }
      return;
    case 'help':
      if (has(rest, 'wi', '--web', '--info')) return judge.note('unknown', 'git help --web opens another program.');
      return;
    case 'rm':
    case 'mv':
      for (const a of pos) judge.arg(at(a), 'write');
      if (sub === 'rm' && has(rest, 'r')) return judge.note('destructive', 'git rm -r deletes whole folders.');
      return judge.note('write', sub === 'rm' ? 'git rm deletes files.' : 'git mv moves files.');
    case 'worktree':
      if (pos[0]?.value === 'add' && pos[1]) judge.arg(at(pos[1]), 'write');
      return judge.note('write', 'git worktree changes the working trees.');
    case 'apply':
      if (has(rest, '', '--check', '--stat', '--numstat', '--summary') && !has(rest, '', '--apply')) return;
      return judge.note('write', 'git apply changes files named in the patch.');
    case 'reflog':
      if (['expire', 'delete'].includes(pos[0]?.value ?? '')) return judge.note('destructive', 'git reflog expire throws away recovery points.');
      return;
    case 'filter-branch':
    case 'filter-repo':
    case 'update-ref':
      return judge.note('destructive', `git ${sub} rewrites history.`);
    default:
      if (GIT_READ.has(sub)) return;
      if (GIT_WRITE.has(sub)) return judge.note('write', `git ${sub} changes the repository.`);
      return judge.note('unknown', `git ${sub} is not a git command Amber knows how to judge.`);
  }
}

/** `git config`: reading is fine; setting writes a config file (`.git/config` is protected) that can run programs. */
function config(judge: ShellJudge, rest: readonly ShellArg[], at: (a: ShellArg) => ShellArg): void {
  const pos = positional(rest);
  if (has(rest, 'e', '--edit')) return judge.note('unknown', 'git config --edit runs an editor.');
  if (
    has(rest, 'l', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '--show-origin', '--show-scope', '--get-color', '--get-colorbool') ||
    ['get', 'list'].includes(pos[0]?.value ?? '')
  )
    return;
  const file = optionValues(rest, 'f', '--file')[0];
  if (pos.length === 1 && !file && !has(rest, '', '--unset', '--unset-all', '--remove-section', '--rename-section', '--add')) return;
  if (file) judge.arg(at(file), 'write');
  else if (has(rest, '', '--global')) judge.arg(word('~/.gitconfig'), 'write');
  else if (has(rest, '', '--system')) judge.arg(word('/etc/gitconfig'), 'write');
  else judge.arg(at(word('.git/config')), 'write');
  judge.noAlways('It changes git’s configuration, which can make git run other programs, so an “always” answer is never kept for it.');
  judge.note('unknown', 'git config changes settings that can make git run other programs.');
}
