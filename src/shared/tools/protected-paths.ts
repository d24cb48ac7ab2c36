/**
 * One kind of path whose change can run code later, outside any approval: a git hook, an editor task, a
 * shell start-up file, a package script. `folder` matches that run of folder names anywhere in a path
 * (the folder itself and everything under it); `file` matches a file name in any folder; `suffix` the end
 * of a file name. Matching ignores case, so a case-insensitive disk cannot be used to slip past.
 */
export type ProtectedPath = ({ folder: string } | { file: string } | { suffix: string }) & { why: string };

const HOOKS = 'git runs what is there (hooks, config, filters)';
const EDITOR = 'an editor runs tasks, launch configurations and settings from it';
const SHELL = 'a shell runs it when it starts';
const BUILD = 'it holds commands that run when the project is installed, built or tested';
const CI = 'it holds commands that run in CI with its secrets';

/** The protected paths: writes to them ask in write and yolo modes, whatever grants and allow rules say. */
export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  { folder: '.git', why: HOOKS },
  { folder: '.vscode', why: EDITOR },
  { folder: '.idea', why: EDITOR },
  { folder: '.zed', why: EDITOR },
  { folder: '.fleet', why: EDITOR },
  { folder: '.devcontainer', why: EDITOR },
  { suffix: '.code-workspace', why: EDITOR },
  { file: '.bashrc', why: SHELL },
  { file: '.bash_profile', why: SHELL },
  { file: '.bash_login', why: SHELL },
  { file: '.bash_logout', why: SHELL },
  { file: '.profile', why: SHELL },
  { file: '.zshrc', why: SHELL },
  { file: '.zprofile', why: SHELL },
  { file: '.zshenv', why: SHELL },
  { file: '.zlogin', why: SHELL },
  { file: '.zlogout', why: SHELL },
  { file: '.cshrc', why: SHELL },
  { file: '.tcshrc', why: SHELL },
  { file: '.kshrc', why: SHELL },
  { file: '.inputrc', why: SHELL },
  { file: 'config.fish', why: SHELL },
  { folder: 'fish/conf.d', why: SHELL },
  { folder: 'fish/functions', why: SHELL },
  { file: '.envrc', why: 'direnv runs it on entering the folder' },
  { file: 'package.json', why: BUILD },
  { file: '.npmrc', why: BUILD },
  { file: '.yarnrc', why: BUILD },
  { file: '.yarnrc.yml', why: BUILD },
  { file: '.pnpmfile.cjs', why: BUILD },
  { file: 'pyproject.toml', why: BUILD },
  { file: 'setup.py', why: BUILD },
  { file: 'setup.cfg', why: BUILD },
  { file: 'conftest.py', why: BUILD },
  { file: 'Cargo.toml', why: BUILD },
  { file: 'build.rs', why: BUILD },
  { folder: '.cargo', why: BUILD },
  { file: 'Makefile', why: BUILD },
  { file: 'GNUmakefile', why: BUILD },
  { file: 'justfile', why: BUILD },
  { file: 'build.gradle', why: BUILD },
  { file: 'build.gradle.kts', why: BUILD },
  { file: 'settings.gradle', why: BUILD },
  { file: 'settings.gradle.kts', why: BUILD },
  { file: 'Gemfile', why: BUILD },
  { file: 'Rakefile', why: BUILD },
  { file: '.pre-commit-config.yaml', why: HOOKS },
  { folder: '.husky', why: HOOKS },
  { file: 'lefthook.yml', why: HOOKS },
  { folder: '.github/workflows', why: CI },
  { folder: '.github/actions', why: CI },
  { file: '.gitlab-ci.yml', why: CI },
  { folder: '.circleci', why: CI },
];

/**
 * Why changing `path` (absolute, normalised) is protected, as a clause ("git runs what is there…"), or
 * null when it is not. Only the path's text is looked at; resolve symlinks first to judge where a write lands.
 */
export function protectedReason(path: string, table: readonly ProtectedPath[] = PROTECTED_PATHS): string | null {
  const parts = path.toLowerCase().split(/[\\/]+/).filter((p) => p !== '');
  const name = parts.at(-1) ?? '';
  for (const entry of table) {
    if ('file' in entry && name === entry.file.toLowerCase()) return entry.why;
    if ('suffix' in entry && name.endsWith(entry.suffix.toLowerCase())) return entry.why;
    if ('folder' in entry && containsRun(parts, entry.folder.toLowerCase().split('/'))) return entry.why;
  }
  return null;
}

function containsRun(parts: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= parts.length; i++) {
    if (run.every((r, j) => parts[i + j] === r)) return true;
  }
  return false;
}
