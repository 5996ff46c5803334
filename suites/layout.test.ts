/**
 * Where tests live (docs/conventions.md, "Where tests live"; issue 44 item 8), held against the tree:
 * a unit test sits beside the file it tests (src/x/foo.test.ts, or src/x/foo.<aspect>.test.ts, beside
 * src/x/foo.ts); a test of a feature across files lives in suites/; a slow proof lives in suites/e2e/,
 * which `npm run test:e2e` runs and `npm test` does not. Each rule is a pure function over paths or
 * texts, shown to fail on a planted violation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import unit, { E2E_DIR } from '../vitest.config.js';
import e2e from '../vitest.e2e.config.js';

const ROOT = join(import.meta.dirname, '..');

/** Every file under `dir` (relative to the repository, `/`-separated). */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true }).map((f) => `${dir}/${String(f)}`);
}

const SOURCES = filesUnder('src');
const TEST_FILES = [...SOURCES, ...filesUnder('suites')].filter((f) => f.endsWith('.test.ts'));

/**
 * The tests in src/ that sit beside no file of their name, each with the reason. An entry that is no
 * longer needed fails too (`staleExceptions`), so the list only shrinks.
 */
const NOT_BESIDE: Record<string, string> = {
  'src/layering.test.ts':
    'the floors of src/ as a whole (docs/architecture.md): it reads every source, so it sits at the '
    + 'root of what it holds',
};

/** The source a unit test is beside: its name up to the first dot (foo.test.ts and foo.browser.test.ts test foo.ts). */
function besideSource(testFile: string): string {
  const slash = testFile.lastIndexOf('/');
  const name = testFile.slice(slash + 1);
  return `${testFile.slice(0, slash + 1)}${name.slice(0, name.indexOf('.'))}.ts`;
}

/** The tests under src/ with no source beside them that no exception names. */
function testsNotBeside(files: readonly string[], exceptions: Record<string, string>): string[] {
  const have = new Set(files);
  return files.filter(
    (f) => f.startsWith('src/') && f.endsWith('.test.ts') && !have.has(besideSource(f)) && !(f in exceptions),
  );
}

/** The exceptions no longer needed: the test is gone, or a source of its name now sits beside it. */
function staleExceptions(files: readonly string[], exceptions: Record<string, string>): string[] {
  const have = new Set(files);
  return Object.keys(exceptions).filter((f) => !have.has(f) || have.has(besideSource(f)));
}

/** A vitest glob as a regular expression: `**` any folders, `*` any name part (the only forms the configs use). */
function globRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

interface TestGlobs {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

/** The files a config's include and exclude select from `files`. */
function selected(config: TestGlobs, files: readonly string[]): string[] {
  const include = (config.include ?? []).map(globRegExp);
  const exclude = (config.exclude ?? []).map(globRegExp);
  return files.filter((f) => include.some((r) => r.test(f)) && !exclude.some((r) => r.test(f)));
}

/** Whether a path is in the slow place. */
const inSlowPlace = (f: string) => f.startsWith(`${E2E_DIR}/`);

/**
 * What only a slow proof does: run the `conformance` command as a process of its own, timed and
 * measured from outside, through test/support/processes.ts (`runCli`, or `CLI` to spawn it). A test
 * outside the slow place that does so is a slow proof in the wrong place. (src/mock/main.test.ts
 * starts the mock's process for its signal handling, a second each: a test of main.ts, not a run.)
 */
function startsTheCommand(text: string): boolean {
  return [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*test\/support\/processes\.js'/g)].some((m) =>
    /\b(?:runCli|CLI)\b/.test(m[1]!),
  );
}

/**
 * The tests outside the slow place that do what only a slow proof does, and any file or folder that names a slow place
 * elsewhere.
 */
function slowProofsOutside(files: readonly string[], read: (f: string) => string): string[] {
  return files.filter(
    (f) =>
      !inSlowPlace(f) && f !== 'suites/layout.test.ts' && (/(^|\/|\.)e2e(\/|\.)/.test(f) || startsTheCommand(read(f))),
  );
}

describe('a unit test sits beside its file', () => {
  test('every test under src/ has a source of its name beside it, or an exception that says why', () => {
    expect(testsNotBeside(SOURCES, NOT_BESIDE)).toEqual([]);
  });
  test('every exception is still needed', () => {
    expect(staleExceptions(SOURCES, NOT_BESIDE)).toEqual([]);
  });
  test(
    'planted: a feature test in src/ and a renamed one are found; an aspect of a file, and an exception, ' + 'are not',
    () => {
      const files = [
        'src/cli/config.ts',
        'src/cli/config.test.ts',
        'src/cli/config.callback.test.ts',
        'src/cli/verdict.test.ts',
        'src/report/html.ts',
        'src/report/html.browser.test.ts',
        'src/schema/validator-memo.test.ts',
        'src/layering.test.ts',
      ];
      expect(testsNotBeside(files, { 'src/layering.test.ts': 'why' })).toEqual([
        'src/cli/verdict.test.ts',
        'src/schema/validator-memo.test.ts',
      ]);
      expect(besideSource('src/report/html.browser.test.ts')).toBe('src/report/html.ts');
    },
  );
  test('planted: an exception whose test has gone, or whose source now exists, is stale', () => {
    const files = ['src/checks/a.ts', 'src/checks/a.test.ts', 'src/checks/b.test.ts'];
    expect(
      staleExceptions(files, {
        'src/checks/a.test.ts': 'why',
        'src/checks/b.test.ts': 'why',
        'src/gone.test.ts': 'why',
      }),
    ).toEqual(['src/checks/a.test.ts', 'src/gone.test.ts']);
  });
});

describe(`a slow proof lives in ${E2E_DIR}/`, () => {
  test('npm test runs every test file but those under it, npm run test:e2e exactly those', () => {
    const slow = TEST_FILES.filter(inSlowPlace);
    expect(slow.length).toBeGreaterThan(0);
    expect(selected(unit.test!, TEST_FILES)).toEqual(TEST_FILES.filter((f) => !inSlowPlace(f)));
    expect(selected(e2e.test!, TEST_FILES)).toEqual(slow);
  });
  test('no test outside it starts the command as a process, and nothing else is named e2e', () => {
    expect(slowProofsOutside(TEST_FILES, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([]);
  });
  test('planted: a config that lets a slow proof into npm test, or runs a fast test as slow, is found', () => {
    const files = ['src/a.test.ts', 'suites/b.test.ts', `${E2E_DIR}/c.test.ts`, `${E2E_DIR}/deep/d.test.ts`];
    expect(
      selected({ include: ['src/**/*.test.ts', 'suites/**/*.test.ts'], exclude: [`${E2E_DIR}/**`] }, files),
    ).toEqual(['src/a.test.ts', 'suites/b.test.ts']);
    // Before: a list of names, which a new slow file was missing from.
    expect(
      selected({ include: ['src/**/*.test.ts', 'suites/**/*.test.ts'], exclude: [`${E2E_DIR}/c.test.ts`] }, files),
    ).toContain(`${E2E_DIR}/deep/d.test.ts`);
    expect(selected({ include: ['suites/**/*.test.ts'] }, files)).toContain('suites/b.test.ts');
    expect(selected({ include: [`${E2E_DIR}/**/*.test.ts`] }, files)).toEqual([
      `${E2E_DIR}/c.test.ts`,
      `${E2E_DIR}/deep/d.test.ts`,
    ]);
  });
  test('planted: a test outside it that runs the command as a process, or is named e2e, is found', () => {
    const texts: Record<string, string> = {
      'src/cli/run.test.ts': "import { cli } from '../../test/support/cli.js';",
      'suites/cli/slow.test.ts': "import { REPO_ROOT, runCli } from '../../test/support/processes.js';",
      'suites/spawned.test.ts': "import {\n  CLI,\n  tempDir,\n} from '../test/support/processes.js';",
      'src/mock/load.e2e.test.ts': '',
      [`${E2E_DIR}/ok.test.ts`]: "import { runCli } from '../../test/support/processes.js';",
      'suites/secrets.test.ts': "import { findSecret, REPO_ROOT } from '../test/support/processes.js';",
    };
    expect(slowProofsOutside(Object.keys(texts), (f) => texts[f]!)).toEqual([
      'suites/cli/slow.test.ts',
      'suites/spawned.test.ts',
      'src/mock/load.e2e.test.ts',
    ]);
  });
});
