import { defineConfig } from 'vitest/config';

const shared = { pool: 'forks', testTimeout: 30_000, hookTimeout: 30_000 } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'node', include: ['src/**/*.test.ts', 'tests/**/*.test.ts'], exclude: ['tests/browser/**', '**/node_modules/**'] } },
      // Browser flows: the headless shell + Chromium. The renderer is built once per run when stale.
      { test: { ...shared, name: 'browser', include: ['tests/browser/**/*.test.ts'], globalSetup: ['tests/browser/global-setup.ts'], testTimeout: 60_000, fileParallelism: false } },
    ],
  },
});
