import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's entry points by name (src/index.test.ts imports them as a consumer would), from
  // the sources: the tests need no build. scripts/test-package.mjs proves the built package.
  resolve: {
    alias: [
      { find: /^accommodation-conformance\/mock$/, replacement: fileURLToPath(new URL('./src/mock/index.ts', import.meta.url)) },
      { find: /^accommodation-conformance$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
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
