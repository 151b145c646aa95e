import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each run's own TMPDIR, and a check at its end that the run left no process running.
    globalSetup: ['test/suite-setup.ts'],
  },
});
