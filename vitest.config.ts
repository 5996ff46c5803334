import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The slow proofs, run by `npm run test:e2e` (vitest.e2e.config.ts), not by `npm test`: each drives
 * the real command line as a process of its own against hostile targets, huge bodies, a password
 * echoed in every spelling, or a 10 s soak, and measures time and memory from outside. They can only
 * be slow; `.ci/run` runs both commands. Everything else (unit tests and the conformance suites,
 * in-process) is `npm test`.
 */
export const E2E_FILES = [
  'suites/hostile-heavy.test.ts',
  'suites/hostile.test.ts',
  'suites/secrets.test.ts',
  'src/mock/load.test.ts',
  'suites/self-test-cli.test.ts',
  'suites/suites-target.test.ts',
  'suites/rerun-commands.test.ts',
  'suites/transient.test.ts',
  // Real TLS servers and proxies, the msw path against the direct one byte for byte, and whole CLI
  // runs against servers that are not the service: slow proofs (12-22 s each on 2 cores), which
  // took npm test to 120 s with issue 33's sequences.
  'suites/network.test.ts',
  'src/mock/direct.test.ts',
  'suites/trust.test.ts',
  // Issue 40's field soak: 24 default full runs through a proxy and TLS against the mock with 3%
  // transient faults (about 60 s each, mostly the remote pace; 4 at a time: about 8 min).
  'suites/field-soak.test.ts',
  // Whole runs of the command and the library against misconfigured targets, shards, recordings and
  // expectations (each a few CLI runs of 1-3 s): slow proofs, moved here when issues 40-42 made every
  // run send about half as many exchanges again (the login variants, the DOCTYPE probes, the id probes)
  // and npm test reached 143 s on 2 cores against its 120 s budget.
  'suites/untested.test.ts',
  'src/index.test.ts',
  'src/cli/shard-merge.test.ts',
  'src/cli/record-replay.test.ts',
  'src/cli/expectations.test.ts',
  'src/cli/bookings.test.ts',
  // Every input fault's own runs, and the default full run against a mock where every id exists.
  'suites/input-faults.test.ts',
  // Issue 41: the network failure matrix, each case a command run as a process against real TLS servers and proxies.
  'suites/network-failures.test.ts',
];

export const shared = {
  // The package's entry points by name (src/index.test.ts imports them as a consumer would), from
  // the sources: the tests need no build. scripts/test-package.mjs proves the built package.
  resolve: {
    alias: [
      { find: /^accommodation-conformance\/mock$/, replacement: fileURLToPath(new URL('./src/mock/index.ts', import.meta.url)) },
      { find: /^accommodation-conformance$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
};

export default defineConfig({
  ...shared,
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...E2E_FILES],
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
