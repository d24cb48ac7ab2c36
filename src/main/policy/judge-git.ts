import { has, isOption, positional, type ShellArg, type ShellJudge } from './shell-args.ts';

const GIT_READ = new Set('status log diff show blame shortlog describe rev-parse rev-list ls-files ls-tree ls-remote grep cat-file help version whatchanged show-ref for-each-ref name-rev merge-base count-objects var check-ignore'.split(' '));
const GIT_WRITE = new Set('add commit merge rebase cherry-pick revert pull fetch init clone mv am apply worktree submodule notes bisect switch gc format-patch archive'.split(' '));

/** Judges a git command line (the words after `git`) by its subcommand and options. */
export function judgeGit(judge: ShellJudge, args: readonly ShellArg[]): void {
  let i = 0;
  while (i < args.length && isOption(args[i]!)) {
    const v = args[i]!.value!;
    if (v.includes('=')) judge.path(v, 'read');
    if (v === '-c' || v.startsWith('--exec-path') || v.startsWith('--config-env')) return judge.note('unknown', 'git -c sets configuration that can make git run other programs.');
    if (v === '-C' || v === '--git-dir' || v === '--work-tree') {
      const dir = args[i + 1];
      if (dir?.value) judge.path(dir.value, 'read');
      else if (dir) judge.dynamicPath(dir.raw);
      i += 2;
      continue;
    }
    i++;
  }
  const sub = args[i]?.value;
  if (sub === null) return judge.note('unknown', 'git runs a subcommand named only at run time.');
  if (sub === undefined) return;
  const rest = args.slice(i + 1);
  const pos = positional(rest);
  const force = has(rest, 'f', '--force', '--force-with-lease', '--force-if-includes', '--mirror', '--delete', '--prune');
  for (const a of rest) if (a.value !== null) judge.path(a.value, 'read');
  if ((sub === 'submodule' && pos[0]?.value === 'foreach') || (sub === 'bisect' && pos[0]?.value === 'run') || (sub === 'rebase' && has(rest, 'x', '--exec'))) {
    return judge.note('unknown', `git ${sub} is told to run other commands, which cannot be judged.`);
  }
  switch (sub) {
    case 'reset':
      if (has(rest, '', '--hard', '--merge', '--keep')) return judge.note('destructive', `git reset ${rest.map((a) => a.raw).join(' ')} throws away uncommitted work.`);
      return judge.note('write', 'git reset moves the branch or unstages changes.');
    case 'clean':
      if (has(rest, 'n', '--dry-run')) return;
      return judge.note('destructive', 'git clean deletes untracked files.');
    case 'push':
      if (force || pos.some((a) => a.value?.startsWith(':') || a.value?.startsWith('+'))) return judge.note('destructive', 'git push --force rewrites or deletes history on the remote.');
      return judge.note('destructive', 'git push publishes commits to a remote, which cannot be taken back from here.');
    case 'checkout':
      if (has(rest, 'bB', '--orphan')) return judge.note('write', 'git checkout -b creates a branch.');
      if (force || rest.some((a) => a.value === '--' || a.value === '.' || a.glob)) return judge.note('destructive', 'git checkout of paths throws away uncommitted changes.');
      return judge.note('write', 'git checkout switches branches.');
    case 'restore':
      if (has(rest, 'S', '--staged') && !has(rest, 'W', '--worktree')) return judge.note('write', 'git restore --staged unstages changes.');
      return judge.note('destructive', 'git restore throws away uncommitted changes.');
    case 'switch':
      if (force || has(rest, '', '--discard-changes')) return judge.note('destructive', 'git switch --discard-changes throws away uncommitted changes.');
      return judge.note('write', 'git switch changes branches.');
    case 'branch':
      if (has(rest, 'D', '--delete') && (has(rest, 'D') || force)) return judge.note('destructive', 'git branch -D deletes a branch that may not be merged.');
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
    case 'remote':
      if (pos.length === 0 || ['show', 'get-url'].includes(pos[0]?.value ?? '')) return;
      return judge.note('write', 'git remote changes the remotes.');
    case 'config':
      if (has(rest, 'l', '--get', '--get-all', '--get-regexp', '--list', '--show-origin') || pos.length === 1 || ['get', 'list'].includes(pos[0]?.value ?? '')) return;
      return judge.note('unknown', 'git config changes settings that can make git run other programs.');
    case 'rm':
      if (has(rest, 'r')) return judge.note('destructive', 'git rm -r deletes whole folders.');
      return judge.note('write', 'git rm deletes files.');
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
