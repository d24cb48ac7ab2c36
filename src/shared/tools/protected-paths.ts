/**
 * One kind of path whose change can run code later, outside any approval: a git hook, an editor task, a
 * shell start-up file, a package script, a test or lint config. `folder` matches that run of folder names
 * anywhere in a path (the folder itself and everything under it); `file` matches a file name in any folder;
 * `suffix` the end of a file name; `prefix` its start (`vitest.config.` for every extension the tool
 * loads), with `suffix` as well when both must hold. Matching ignores case, so a case-insensitive disk
 * cannot be used to slip past.
 */
export type ProtectedPath = ({ folder: string } | { file: string } | { suffix: string } | { prefix: string; suffix?: string }) & { why: string };

const HOOKS = 'git runs what is there (hooks, config, filters)';
const EDITOR = 'an editor runs tasks, launch configurations and settings from it';
const SHELL = 'a shell runs it when it starts';
const BUILD = 'it holds commands that run when the project is installed, built or tested';
const CI = 'it holds commands that run in CI with its secrets';
const TOOL = 'a test, build, lint or format tool runs it as code, or loads the plugins it names, whenever it runs (editors run some on every save)';
const TSCONFIG = "editors' TypeScript service loads the plugins it names, and ts-node and compiler patches run what it names";
const BIN = 'package scripts and tools run the programs kept there';
const PYTHON = 'Python runs it at every start';
const ENV =
  'tools that load it (node --env-file, direnv, pipenv, docker compose) pass its variables, such as NODE_OPTIONS, LD_PRELOAD or PYTHONPATH, to what they start';

/**
 * The protected paths: writes to them ask in write and yolo modes, whatever grants and allow rules say.
 * Left out on purpose: a Dockerfile or compose file (its commands run inside a container, when a person or
 * a protected CI config builds it), and source files in general (they run only when the user runs them).
 */
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
  { folder: '.buildkite', why: CI },
  { file: 'Jenkinsfile', why: CI },
  { file: '.travis.yml', why: CI },
  { file: 'azure-pipelines.yml', why: CI },
  { file: 'bitbucket-pipelines.yml', why: CI },
  { file: '.drone.yml', why: CI },
  { file: 'appveyor.yml', why: CI },
  { file: '.appveyor.yml', why: CI },
  // Test, build, lint and format configs: each tool finds these names by itself and runs them (or the
  // plugins they name) with the user's rights. A prefix covers every extension the tool accepts.
  { prefix: 'vitest.config.', why: TOOL },
  { prefix: 'vitest.workspace.', why: TOOL },
  { prefix: 'vite.config.', why: TOOL },
  { prefix: 'jest.config.', why: TOOL },
  { prefix: 'jest.setup.', why: TOOL },
  { prefix: 'karma.conf.', why: TOOL },
  { prefix: 'playwright.config.', why: TOOL },
  { prefix: 'cypress.config.', why: TOOL },
  { prefix: '.mocharc', why: TOOL },
  { prefix: '.eslintrc', why: TOOL },
  { prefix: 'eslint.config.', why: TOOL },
  { prefix: '.prettierrc', why: TOOL },
  { prefix: 'prettier.config.', why: TOOL },
  { prefix: '.babelrc', why: TOOL },
  { prefix: 'babel.config.', why: TOOL },
  { prefix: 'webpack.config.', why: TOOL },
  { prefix: 'rollup.config.', why: TOOL },
  { prefix: 'postcss.config.', why: TOOL },
  { prefix: 'tailwind.config.', why: TOOL },
  { prefix: 'next.config.', why: TOOL },
  { prefix: 'nuxt.config.', why: TOOL },
  { prefix: 'svelte.config.', why: TOOL },
  { prefix: 'astro.config.', why: TOOL },
  { prefix: '.lintstagedrc', why: HOOKS },
  { prefix: 'lint-staged.config.', why: HOOKS },
  // tsconfig.json and the tsconfig.*.json it references; not tsconfig.tsbuildinfo, which the compiler writes.
  { prefix: 'tsconfig.', suffix: '.json', why: TSCONFIG },
  { file: 'jsconfig.json', why: TSCONFIG },
  { folder: 'node_modules/.bin', why: BIN },
  { folder: '.yarn/releases', why: BIN },
  { folder: '.yarn/plugins', why: BIN },
  { file: '.pnp.cjs', why: BIN },
  { file: '.pnp.loader.mjs', why: BIN },
  { suffix: '.pth', why: PYTHON },
  { file: 'sitecustomize.py', why: PYTHON },
  { file: 'usercustomize.py', why: PYTHON },
  { file: 'tox.ini', why: BUILD },
  { file: 'noxfile.py', why: BUILD },
  { file: 'pytest.ini', why: TOOL },
  { file: '.pylintrc', why: TOOL },
  { file: 'pylintrc', why: TOOL },
  { file: 'mypy.ini', why: TOOL },
  { file: '.mypy.ini', why: TOOL },
  { file: '.env', why: ENV },
  { prefix: '.env.', why: ENV },
];

/**
 * Why changing `path` (absolute, normalised) is protected, as a clause ("git runs what is there…"), or
 * null when it is not. Only the path's text is looked at; resolve symlinks first to judge where a write lands.
 */
export function protectedReason(path: string, table: readonly ProtectedPath[] = PROTECTED_PATHS): string | null {
  const parts = path
    .toLowerCase()
    .split(/[\\/]+/)
    .filter((p) => p !== '');
  const name = parts.at(-1) ?? '';
  for (const entry of table) {
    if ('prefix' in entry) {
      if (name.startsWith(entry.prefix.toLowerCase()) && (entry.suffix === undefined || name.endsWith(entry.suffix.toLowerCase()))) return entry.why;
      continue;
    }
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
