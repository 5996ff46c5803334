import { defineConfig } from 'vitest/config';
import { E2E_FILES, shared } from './vitest.config.js';

/**
 * `npm run test:e2e`: the slow proofs (vitest.config.ts E2E_FILES), each a real `conformance`
 * process against hostile or echoing targets, timed and measured from outside.
 */
export default defineConfig({
  ...shared,
  test: {
    include: E2E_FILES,
    pool: 'forks',
    reporters: [
      'default',
      ['allure-vitest/reporter', { resultsDir: 'reports/allure-vitest-e2e-results' }],
      ['json', { outputFile: 'reports/vitest-e2e-results.json' }],
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
