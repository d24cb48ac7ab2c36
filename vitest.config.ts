import { defineConfig } from 'vitest/config';

const shared = { pool: 'forks', testTimeout: 30_000, hookTimeout: 30_000 } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'node', include: ['src/**/*.test.ts', 'tests/**/*.test.ts'], exclude: ['tests/browser/**', '**/node_modules/**'] } },
      // Browser flows: the headless shell + Chromium, two files at a time (each starts its own shell on a
      // free port, with its own temp data folder and browser profile). The app is built once per run when stale.
      {
        test: {
          ...shared,
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/browser/global-setup.ts'],
          testTimeout: 60_000,
          // A window on a loaded 2-core machine can take more than a second to show what a test waits for.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
