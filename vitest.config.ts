import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The slow proofs live in suites/e2e/ and only there: `npm run test:e2e` (vitest.e2e.config.ts) runs
 * that folder, `npm test` everything else. Each drives the real command line as a process of its own
 * against hostile targets, huge bodies, a password echoed in every spelling, real TLS servers and
 * proxies, or a soak, or makes whole runs by the dozen, and measures time and memory from outside:
 * they can only be slow. A test is made slow by moving it there, never by naming it in a list
 * (docs/conventions.md, "Where tests live"; suites/layout.test.ts holds it). `.ci/run` runs both.
 */
export const E2E_DIR = 'suites/e2e';

export const shared = {
  // The package's entry points by name (suites/e2e/library.test.ts imports them as a consumer would), from
  // the sources: the tests need no build. scripts/test-package.mjs proves the built package.
  resolve: {
    alias: [
      {
        find: /^accommodation-conformance\/mock$/,
        replacement: fileURLToPath(new URL('./src/mock/index.ts', import.meta.url)),
      },
      { find: /^accommodation-conformance$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
};

export default defineConfig({
  ...shared,
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', `${E2E_DIR}/**`],
    pool: 'forks',
    // A file per core (vitest's default leaves one core idle: on 2 cores, one file at a time). The
    // files are in-process and CPU-bound; what they time is bounded at 5× or more.
    maxWorkers: Math.max(2, availableParallelism()),
    // Each worker keeps its modules from file to file instead of importing the harness anew for each
    // of the 80 files: the suite's import time fell from about 25 s to 11 s of CPU. Safe here
    // because no test mocks a module or changes the environment, and runs dispose of the signal
    // handlers they add (src/engine/execute.ts).
    isolate: false,
    // Allure results of `npm test` (the suites label them: epic = group, feature = binding, story =
    // operation); `conformance run` writes its own into --report-dir.
    reporters: [
      'default',
      ['allure-vitest/reporter', { resultsDir: 'reports/allure-vitest-results' }],
      // Counts for CI's closing line (.ci/run prints "N passed, N failed" from it and the e2e one).
      ['json', { outputFile: 'reports/vitest-results.json' }],
      // Every time limit beside its measured duration, and the slowest files (printed at the end).
      ['./test/support/limits-reporter.ts', { outputFile: 'reports/vitest-limits.json' }],
    ],
    // At least 5× the slowest test and hook as measured on 2 cores (the longest test about 15 s; the
    // self-test's beforeAll sets its own), so a machine three times slower still passes; a test or
    // hook that needs more says so itself.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
