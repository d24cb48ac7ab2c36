import { describe, expect, test } from 'vitest';
import { PROTECTED_PATHS, protectedReason } from './protected-paths.ts';

describe('protected paths', () => {
  test.each([
    '/ws/.git',
    '/ws/.git/hooks/pre-commit',
    '/ws/.git/config',
    '/ws/vendor/lib/.git/hooks/post-merge',
    '/ws/.vscode/tasks.json',
    '/ws/.vscode/launch.json',
    '/ws/.vscode/settings.json',
    '/ws/.idea/workspace.xml',
    '/ws/.zed/tasks.json',
    '/ws/project.code-workspace',
    '/home/u/.bashrc',
    '/home/u/.bash_profile',
    '/home/u/.profile',
    '/home/u/.zshrc',
    '/home/u/.zprofile',
    '/home/u/.zshenv',
    '/home/u/.config/fish/config.fish',
    '/home/u/.config/fish/conf.d/env.fish',
    '/home/u/.inputrc',
    '/ws/.envrc',
    '/ws/package.json',
    '/ws/packages/app/package.json',
    '/ws/pyproject.toml',
    '/ws/setup.py',
    '/ws/Cargo.toml',
    '/ws/build.rs',
    '/ws/.npmrc',
    '/ws/.pre-commit-config.yaml',
    '/ws/.husky/pre-commit',
    '/ws/.github/workflows/ci.yml',
    '/ws/Makefile',
    '/ws/vitest.config.ts',
    '/ws/vitest.config.mts',
    '/ws/packages/web/vite.config.js',
    '/ws/jest.config.cjs',
    '/ws/jest.setup.ts',
    '/ws/karma.conf.js',
    '/ws/playwright.config.ts',
    '/ws/cypress.config.ts',
    '/ws/.eslintrc',
    '/ws/.eslintrc.json',
    '/ws/.eslintrc.cjs',
    '/ws/eslint.config.mjs',
    '/ws/.prettierrc',
    '/ws/.prettierrc.yaml',
    '/ws/prettier.config.js',
    '/ws/babel.config.json',
    '/ws/.babelrc',
    '/ws/webpack.config.js',
    '/ws/rollup.config.mjs',
    '/ws/.mocharc.yml',
    '/ws/tsconfig.json',
    '/ws/tsconfig.node.json',
    '/ws/jsconfig.json',
    '/ws/Jenkinsfile',
    '/ws/.travis.yml',
    '/ws/azure-pipelines.yml',
    '/ws/bitbucket-pipelines.yml',
    '/ws/.buildkite/pipeline.yml',
    '/ws/node_modules/.bin/vitest',
    '/ws/packages/a/node_modules/.bin/tsc',
    '/ws/.yarn/releases/yarn-4.1.0.cjs',
    '/ws/.yarn/plugins/@yarnpkg/plugin-x.cjs',
    '/ws/.pnp.cjs',
    '/ws/.venv/lib/python3.12/site-packages/distutils-precedence.pth',
    '/ws/.venv/lib/python3.12/site-packages/sitecustomize.py',
    '/ws/usercustomize.py',
    '/ws/tox.ini',
    '/ws/noxfile.py',
    '/ws/pytest.ini',
    '/ws/.pylintrc',
    '/ws/mypy.ini',
    '/ws/.env',
    '/ws/.env.local',
    '/ws/apps/api/.env.production',
  ])('%s is protected', (path) => {
    expect(protectedReason(path)).toEqual(expect.any(String));
  });

  test.each([
    '/ws/src/index.ts',
    '/ws/README.md',
    '/ws/.github/CODEOWNERS',
    '/ws/docs/git/notes.md',
    '/ws/my.git/file',
    '/ws/package.json.bak',
    '/ws/.gitignore',
    '/ws/src/bashrc.ts',
    // Written by the compiler itself, next to the config it is named after.
    '/ws/tsconfig.tsbuildinfo',
    '/ws/src/vite.config.helpers/readme.md',
    '/ws/src/my-vitest.config.ts',
    '/ws/node_modules/vitest/package-lock.json.txt',
    '/ws/node_modules/.cache/vite/deps.json',
    '/ws/.environment.md',
    '/ws/Dockerfile',
    '/ws/docker-compose.yml',
    '/ws/src/env.ts',
  ])('%s is not protected', (path) => {
    expect(protectedReason(path)).toBeNull();
  });

  test('case does not hide a protected path (case-insensitive disks write the same file)', () => {
    expect(protectedReason('/ws/.GIT/hooks/pre-commit')).not.toBeNull();
    expect(protectedReason('/ws/Package.JSON')).not.toBeNull();
    expect(protectedReason('/ws/.GitHub/Workflows/x.yml')).not.toBeNull();
    expect(protectedReason('/ws/Vitest.Config.TS')).not.toBeNull();
    expect(protectedReason('/ws/.ESLintRC.json')).not.toBeNull();
    expect(protectedReason('/ws/TSConfig.Base.JSON')).not.toBeNull();
    expect(protectedReason('/ws/Node_Modules/.BIN/x')).not.toBeNull();
    expect(protectedReason('/ws/.ENV')).not.toBeNull();
  });

  test('backslash separators are folder separators too', () => {
    expect(protectedReason('C:\\ws\\.git\\hooks\\pre-commit')).not.toBeNull();
  });

  test('every entry gives a reason and matches something', () => {
    for (const entry of PROTECTED_PATHS) {
      expect(entry.why.length).toBeGreaterThan(10);
      const sample =
        'prefix' in entry
          ? `/x/${entry.prefix}a${entry.suffix ?? ''}`
          : 'file' in entry
            ? `/x/${entry.file}`
            : 'suffix' in entry
              ? `/x/a${entry.suffix}`
              : `/x/${entry.folder}/y`;
      expect(protectedReason(sample), sample).toBe(entry.why);
    }
  });

  test('a prefix with a suffix needs both: tsconfig.*.json, never the build info tsc writes beside it', () => {
    const table = [{ prefix: 'tsconfig.', suffix: '.json', why: 'w' }];
    expect(protectedReason('/ws/tsconfig.json', table)).toBe('w');
    expect(protectedReason('/ws/tsconfig.app.json', table)).toBe('w');
    expect(protectedReason('/ws/tsconfig.tsbuildinfo', table)).toBeNull();
    expect(protectedReason('/ws/base.tsconfig.json', table)).toBeNull();
  });

  test('a prefix matches the start of the file name only, never a folder name above it', () => {
    const table = [{ prefix: 'vite.config.', why: 'w' }];
    expect(protectedReason('/ws/vite.config.ts', table)).toBe('w');
    expect(protectedReason('/ws/vite.config.d/plugin.ts', table)).toBeNull();
    expect(protectedReason('/ws/my.vite.config.ts', table)).toBeNull();
  });
});
