import { defineConfig } from 'vitest/config';
import { E2E_DIR, shared } from './vitest.config.js';

/**
 * `npm run test:e2e`: the slow proofs, every test file under suites/e2e/ (vitest.config.ts E2E_DIR),
 * each a real `conformance` process against hostile or echoing targets, timed and measured from outside.
 */
export default defineConfig({
  ...shared,
  test: {
    include: [`${E2E_DIR}/**/*.test.ts`],
    pool: 'forks',
    // One file at a time: these measure wall time and memory of whole processes.
    maxWorkers: 1,
    reporters: [
      'default',
      ['allure-vitest/reporter', { resultsDir: 'reports/allure-vitest-e2e-results' }],
      ['json', { outputFile: 'reports/vitest-e2e-results.json' }],
      ['./test/support/limits-reporter.ts', { outputFile: 'reports/vitest-e2e-limits.json' }],
    ],
    // At least 5× the slowest test as measured on 2 cores (about 25 s: a million siblings); tests
    // bounded by a run's own deadline set their own limit.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
