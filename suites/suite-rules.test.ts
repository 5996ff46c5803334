/**
 * Rules of the test suite itself: what `isolate: false` (vitest.config.ts) relies on, and the
 * limits reporter that holds every time limit against its measured duration (issue 24).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { explicitHookLimit } from '../test/support/limits-reporter.js';

const ROOT = join(import.meta.dirname, '..');
const testFiles = ['src', 'suites', 'test']
  .flatMap((d) =>
    readdirSync(join(ROOT, d), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(d, f)),
  )
  .filter((f) => /\.test\.ts$/.test(f) || f.startsWith('test/'));

describe('the suite', () => {
  test(
    "no test mocks a module, stubs a global or changes the environment: the files share their workers' " + 'modules',
    () => {
      const offenders = testFiles.filter((f) => {
        const text = readFileSync(join(ROOT, f), 'utf8');
        return (
          /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|setGlobalDispatcher\(|process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env/.test(
            text,
          ) && f !== 'suites/suite-rules.test.ts'
        );
      });
      expect(offenders).toEqual([]);
    },
  );

  test("the limits reporter reads a hook's own limit, the smallest in a file, and none where there is none", () => {
    expect(
      explicitHookLimit('beforeAll(async () => { await f({ a: [1, 2] }); }, 180_000);\nafterAll(() => g(), 90000);'),
    ).toBe(90_000);
    expect(
      explicitHookLimit('beforeAll(async () => { x = await start(); });\nafterAll(() => x.close());'),
    ).toBeUndefined();
    // A number inside the hook's body is not its limit.
    expect(explicitHookLimit('beforeAll(() => { setTimeout(r, 5000); });')).toBeUndefined();
  });
});
