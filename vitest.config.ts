import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts'],
    pool: 'forks',
    // Allure results of `npm test` (the suites label them: epic = group, feature = binding, story =
    // operation); `conformance run` writes its own into --report-dir.
    reporters: [
      'default',
      ['allure-vitest/reporter', { resultsDir: 'reports/allure-vitest-results' }],
      // Counts for CI's closing line (.ci/run prints "N passed, N failed" from it).
      ['json', { outputFile: 'reports/vitest-results.json' }],
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
