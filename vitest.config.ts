import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two tiers (docs/testing.md): `unit`, every test/**/*.test.ts outside test/integration (seconds
// each), and `integration`, the tests that spawn the CLI, fuzz for minutes or compare executors
// end to end. `npx vitest run FILE` runs one file of either; `--project unit` one tier.
export default defineConfig({
  test: {
    environment: 'node',
    // a cap for a stuck test, not a wait: a test that needs longer on a slow machine says so itself
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      // unit files are single-threaded JS: one worker per core (Vitest's default, cores − 1, is a single
      // worker on a 2-core machine, which leaves a core idle). Integration files start CLI processes
      // that use every core themselves, so that tier keeps the default.
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/integration/**'], maxWorkers: availableParallelism() } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
    ],
  },
});
