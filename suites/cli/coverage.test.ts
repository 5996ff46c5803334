/**
 * Coverage at the command line (issue 34, section 2): --min-coverage from a flag, the environment or
 * the config file, a bad value refused naming its source; `conformance diff` listing the coverage
 * that dropped between two runs (answer paths held before and by no answer now, kinds of value no
 * longer sent) as lost coverage.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../../src/core/errors.js';
import type { CoverageCell, CoverageReport, RunReport } from '../../src/core/types.js';
import { coverageShortfall } from '../../src/core/verdict.js';
import { minimalReport } from '../../test/support/report.js';
import { validateReport } from '../../src/schema/json.js';
import { resolveRunSettings } from '../../src/cli/config.js';
import { diffCommand, diffRuns } from '../../src/cli/diff.js';
import { coverageDrops, coverageLost } from '../../src/cli/lost-coverage.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'coverage-cli-'));
function config(json: unknown): string {
  const p = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, JSON.stringify(json));
  return p;
}

describe('--min-coverage PCT', () => {
  test(
    'from the flag, the environment (CONFORMANCE_MIN_COVERAGE) or the config (minCoverage), flags first, '
      + 'each remembering its source',
    () => {
      expect(resolveRunSettings(['--min-coverage', '80'], {}).minCoverage).toEqual({
        percent: 80,
        source: '--min-coverage',
      });
      expect(resolveRunSettings([], { CONFORMANCE_MIN_COVERAGE: '72.5%' }).minCoverage).toEqual({
        percent: 72.5,
        source: 'environment variable CONFORMANCE_MIN_COVERAGE',
      });
      const cfg = config({ minCoverage: 90 });
      expect(resolveRunSettings(['--config', cfg], {}).minCoverage).toEqual({
        percent: 90,
        source: `config file ${cfg}: minCoverage`,
      });
      expect(
        resolveRunSettings(['--config', cfg, '--min-coverage', '10'], { CONFORMANCE_MIN_COVERAGE: '20' }).minCoverage
          ?.percent,
      ).toBe(10);
      expect(resolveRunSettings(['--config', cfg], { CONFORMANCE_MIN_COVERAGE: '20' }).minCoverage?.percent).toBe(20);
      expect(resolveRunSettings([], {}).minCoverage).toBeUndefined();
    },
  );
  test('a value that is no percent from 0 to 100 is refused, naming where it came from (exit 2)', () => {
    for (const v of ['101', '-1', 'most', '', '80%%']) {
      expect(() => resolveRunSettings(['--min-coverage', v], {}), v).toThrow(UsageError);
      expect(() => resolveRunSettings(['--min-coverage', v], {}), v).toThrow(
        /^--min-coverage must be a coverage percent from 0 to 100/,
      );
    }
    expect(() => resolveRunSettings([], { CONFORMANCE_MIN_COVERAGE: 'x' })).toThrow(
      /^environment variable CONFORMANCE_MIN_COVERAGE must be a coverage percent/,
    );
    expect(() => resolveRunSettings(['--config', config({ minCoverage: 'high' })], {})).toThrow(ConfigError);
  });
});

/** A cell of GetMeals on `binding`: `held` says which of its answer paths some answer held. */
function cell(binding: string, held: Record<string, boolean>, sent: string[]): CoverageCell {
  const paths = Object.entries(held).map(([path, seen]) => ({ path, seen }));
  const seen = paths.filter((p) => p.seen).length;
  const kinds = sent.length;
  return {
    operation: 'GetMeals',
    binding,
    percent: Math.floor((1000 * (seen + kinds)) / (paths.length + 2)) / 10,
    requests: 3,
    answers: 3,
    answerPaths: { seen, total: paths.length },
    requestKinds: { sent: kinds, total: 2 },
    outcomes: { accepted: 3 },
    params: [{ name: 'language', sent, possible: ['empty', 'valid'] }],
    paths,
    neverSeen: paths.filter((p) => !p.seen).map((p) => p.path),
  };
}

function withCoverage(cells: CoverageCell[]): RunReport {
  const seen = cells.reduce((n, c) => n + c.answerPaths.seen, 0);
  const total = cells.reduce((n, c) => n + c.answerPaths.total, 0);
  const sent = cells.reduce((n, c) => n + c.requestKinds.sent, 0);
  const kinds = cells.reduce((n, c) => n + c.requestKinds.total, 0);
  const coverage: CoverageReport = {
    percent: Math.floor((1000 * (seen + sent)) / (total + kinds)) / 10,
    answerPaths: { seen, total },
    requestKinds: { sent, total: kinds },
    note: 'test',
    cells,
  };
  return { ...minimalReport([]), coverage };
}

const NAME = '/getMealsResult/meals/meal/name';
const ID = '/getMealsResult/meals/meal/id';

describe('conformance diff: coverage that dropped', () => {
  const before = withCoverage([
    cell('soap11', { [ID]: true, [NAME]: true }, ['empty', 'valid']),
    cell('get', { [ID]: true, [NAME]: false }, ['valid']),
  ]);
  const after = withCoverage([
    cell('soap11', { [ID]: true, [NAME]: false }, ['valid']),
    cell('get', { [ID]: true, [NAME]: true }, ['valid']),
  ]);

  test(
    'an answer path held before and by no answer now, and a kind of value no longer sent, are lost '
      + 'coverage; what was gained is not',
    () => {
      expect(validateReport(JSON.parse(JSON.stringify(before)))).toEqual([]);
      expect(coverageDrops(before, after)).toEqual({
        dropped: [
          { operation: 'GetMeals', binding: 'soap11', old: 100, new: 50, paths: [NAME], kinds: ['language: empty'] },
        ],
        figure: { old: 75, new: 62.5 },
      });
      const d = diffRuns(before, after);
      expect(coverageLost(d)).toBe(true);
      // The other way round: the get cell lost nothing it had (name held now), soap11 gained back.
      expect(coverageDrops(after, before).dropped?.map((x) => x.binding)).toEqual(['get']);
      expect(coverageDrops(before, before)).toEqual({});
      expect(coverageLost(diffRuns(before, before))).toBe(false);
      // A report without coverage (an older version, a shard merge): nothing to compare.
      expect(coverageDrops({ ...before, coverage: undefined }, after)).toEqual({});
    },
  );

  test('the figure: said when it dropped', () => {
    const lower = withCoverage([
      cell('soap11', { [ID]: false, [NAME]: false }, []),
      cell('get', { [ID]: false, [NAME]: false }, []),
    ]);
    expect(coverageDrops(before, lower).figure).toEqual({ old: before.coverage!.percent, new: 0 });
  });

  test('the command lists the drop and exits 1, or 0 with --allow-lost-coverage', async () => {
    const a = join(dir, 'old.json');
    const b = join(dir, 'new.json');
    writeFileSync(a, JSON.stringify(before));
    writeFileSync(b, JSON.stringify(after));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s) } as never;
    expect(await diffCommand([a, b], io)).toBe(1);
    expect(out.join('\n')).toContain(
      `GetMeals [soap11]: coverage 100% → 50%: 1 answer path held before, by no answer now (${NAME}); `
        + `not sent now: language: empty`,
    );
    expect(await diffCommand([a, b, '--allow-lost-coverage', '--format', 'markdown'], io)).toBe(0);
    expect(out.at(-1)).toContain('- GetMeals [soap11]: coverage 100% → 50%');
    expect(await diffCommand([a, a], io)).toBe(0);
  });
});

describe('the reason a run below its minimum gives', () => {
  test('names the figure, the threshold and its source; none at or above it', () => {
    const r = withCoverage([cell('soap11', { [ID]: true, [NAME]: false }, ['valid'])]);
    const at = (percent: number) =>
      coverageShortfall({ coverage: { ...r.coverage!, min: { percent, source: 'config file c.json: minCoverage' } } });
    expect(r.coverage!.percent).toBe(50);
    expect(at(50)).toBeUndefined();
    expect(at(49.9)).toBeUndefined();
    expect(at(50.1)).toBe(
      'coverage 50% is below the minimum 50.1% (config file c.json: minCoverage): 1 answer path held by '
        + 'no answer, 1 kind of parameter value not sent (see the coverage section of the report)',
    );
  });
});

describe('conformance run --min-coverage against the embedded mock', () => {
  test(
    'below the threshold: exit 6 and the reason on the console; at the figure: exit 0; the reports say so '
      + 'either way',
    async () => {
      const flags = [
        'run',
        '--operations',
        'GetThemes',
        '--bindings',
        'get',
        '--examples',
        '0',
        '--no-negative',
        '--quiet',
      ];
      const first = tempDir('cov');
      const at = await cli([...flags, '--report-dir', first, '--min-coverage', '0']);
      expect(at.code, at.err).toBe(0);
      const figure = readReport(first).coverage!.percent;
      expect(figure).toBeGreaterThan(0);
      const same = await cli([...flags, '--report-dir', tempDir('cov'), '--min-coverage', String(figure)]);
      expect(same.code, same.err).toBe(0);
      const dir = tempDir('cov');
      const above = await cli([...flags, '--report-dir', dir], { CONFORMANCE_MIN_COVERAGE: String(figure + 1) });
      expect(above.code).toBe(6);
      expect(above.out).toContain(
        `Verdict: INCOMPLETE (exit 6): coverage ${figure}% is below the minimum ${figure + 1}% `
          + `(environment variable CONFORMANCE_MIN_COVERAGE)`,
      );
      const r = readReport(dir);
      expect(r).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 6, coverage: { min: { percent: figure + 1 } } });
    },
  );
});
