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
  ])('%s is protected', (path) => {
    expect(protectedReason(path)).toEqual(expect.any(String));
  });

  test.each(['/ws/src/index.ts', '/ws/README.md', '/ws/.github/CODEOWNERS', '/ws/docs/git/notes.md', '/ws/my.git/file', '/ws/package.json.bak', '/ws/.gitignore', '/ws/src/bashrc.ts'])(
    '%s is not protected',
    (path) => {
      expect(protectedReason(path)).toBeNull();
    },
  );

  test('case does not hide a protected path (case-insensitive disks write the same file)', () => {
    expect(protectedReason('/ws/.GIT/hooks/pre-commit')).not.toBeNull();
    expect(protectedReason('/ws/Package.JSON')).not.toBeNull();
    expect(protectedReason('/ws/.GitHub/Workflows/x.yml')).not.toBeNull();
  });

  test('backslash separators are folder separators too', () => {
    expect(protectedReason('C:\\ws\\.git\\hooks\\pre-commit')).not.toBeNull();
  });

  test('every entry gives a reason and matches something', () => {
    for (const entry of PROTECTED_PATHS) {
      expect(entry.why.length).toBeGreaterThan(10);
      const sample = 'file' in entry ? `/x/${entry.file}` : 'suffix' in entry ? `/x/a${entry.suffix}` : `/x/${entry.folder}/y`;
      expect(protectedReason(sample), sample).toBe(entry.why);
    }
  });
});
