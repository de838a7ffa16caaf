import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: a few files at once keeps CI fast without starving servers started by the tests.
    maxWorkers: 2,
  },
});
