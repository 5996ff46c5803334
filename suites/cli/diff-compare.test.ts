/**
 * `conformance diff` (two reports) and `conformance compare` (two targets), against the embedded
 * mock and a target that breaks GetMeals on HTTP GET (a doctored recording served by the mock).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CompareReport } from '../../src/cli/compare.js';
import type { ReportDiff } from '../../src/cli/diff-types.js';
import { cli, doctoredTarget, mockTarget, readReport, tempDir } from '../../test/support/cli.js';

let target: Awaited<ReturnType<typeof doctoredTarget>>;
const work = tempDir('diff');
const good = join(work, 'good');
const bad = join(work, 'bad');

beforeAll(async () => {
  target = await doctoredTarget();
  const ops = ['--operations', 'GetMeals,GetThemes', '--examples', '0'];
  expect((await cli(['run', ...mockTarget(target.url), ...ops, '--report-dir', bad])).code).toBe(1);
  // The embedded mock answers everything correctly: the "fixed" state of the same cases.
  expect((await cli(['run', '--quiet', ...ops, '--report-dir', good])).code).toBe(0);
});
afterAll(() => target.close());

describe('diff', () => {
  test('new failures: listed, exit 1', async () => {
    const r = await cli(['diff', good, bad]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/: 3 new failures, 0 fixed, 0 still failing, 0 no longer reported/);
    expect(r.out).toMatch(/New failures \(3\):\n {2}GetMeals \[get\] default :: xsd_valid \(was passed\)/);
  });

  test('fixed ones: listed, exit 0; the same report twice: nothing, exit 0', async () => {
    const r = await cli(['diff', bad, good, '--format', 'json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.out) as ReportDiff;
    expect(d.newFailures).toEqual([]);
    expect(d.fixed.map((e) => `${e.binding} ${e.check} ${e.old}→${e.new}`).sort()).toEqual([
      'get binding_equivalence failed→passed',
      'get shape failed→passed',
      'get xsd_valid failed→passed',
    ]);
    expect((await cli(['diff', bad, bad])).out).toMatch(/0 new failures, 0 fixed, 3 still failing/);
    expect((await cli(['diff', join(bad, 'conformance.json'), bad])).code).toBe(0);
  });

  test('a failure that turned known is not new; a row that vanished is "no longer reported", not fixed', async () => {
    const report = readReport(bad);
    const known = {
      ...report,
      results: report.results.map((r) =>
        r.check === 'shape' && r.status === 'failed' ? { ...r, status: 'known' as const } : r,
      ),
    };
    known.summary = { ...report.summary, failed: report.summary.failed - 1, known: 1 };
    const p = join(work, 'known.json');
    writeFileSync(p, JSON.stringify(known));
    const d1 = JSON.parse((await cli(['diff', bad, p, '--format', 'json'])).out) as ReportDiff;
    expect(d1.fixed.map((e) => e.check)).toEqual(['shape']);
    const gone = { ...report, results: report.results.filter((r) => r.check !== 'xsd_valid') };
    gone.summary = {
      ...report.summary,
      total: gone.results.length,
      failed: report.summary.failed - 1,
      passed: gone.results.filter((r) => r.status === 'passed').length,
    };
    const q = join(work, 'gone.json');
    writeFileSync(q, JSON.stringify(gone));
    const d2 = JSON.parse((await cli(['diff', bad, q, '--format', 'json'])).out) as ReportDiff;
    expect(d2.gone.map((e) => e.check)).toEqual(['xsd_valid']);
    expect(d2.fixed).toEqual([]);
    expect((await cli(['diff', good, bad, '--format', 'markdown'])).out).toMatch(
      /### New failures \(3\)\n\n\| operation \| binding/,
    );
  });

  test('bad input exits 2 naming the file and the problem', async () => {
    const notJson = join(work, 'x.json');
    writeFileSync(notJson, '{ nope');
    const invalid = join(work, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ ...readReport(good), summary: { passed: 'many' } }));
    const miscounted = join(work, 'miscounted.json');
    writeFileSync(
      miscounted,
      JSON.stringify({ ...readReport(good), summary: { ...readReport(good).summary, failed: 7 } }),
    );
    const cases: Array<[string[], RegExp]> = [
      [['diff', good], /diff needs two reports/],
      [['diff', good, join(work, 'nope.json')], /cannot read NEW report .*nope\.json: ENOENT/],
      [['diff', notJson, good], /OLD report .*x\.json is not valid JSON/],
      [
        ['diff', good, invalid],
        /NEW report .*invalid\.json is not a conformance report .*\/summary\/passed: expected integer/,
      ],
      [['diff', good, miscounted], /summary does not count its results \(failed 7 vs 0 rows/],
      [['diff', good, bad, '--format', 'html'], /--format must be text, markdown or json/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(msg);
    }
  });
});

describe('compare', () => {
  const cfg = (name: string, json: unknown) => {
    const p = join(work, `${name}.json`);
    writeFileSync(p, JSON.stringify(json));
    return p;
  };
  const ops = { operations: ['GetMeals', 'GetThemes'] };
  const replayCfg = () =>
    cfg('replay', {
      ...ops,
      target: { bookUrl: target.url, searchUrl: target.url, user: 'mock-user', passwordEnv: 'REPLAY_PW' },
      maxRps: 100000,
    });

  test('two targets that answer alike: a table of "same", exit 0', async () => {
    const dir = join(work, 'cmp-same');
    const r = await cli([
      'compare',
      '--config',
      cfg('mock', ops),
      '--config',
      cfg('mock2', { ...ops, bindings: ['soap12', 'get'] }),
      '--report-dir',
      dir,
      '--quiet',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^operation\s+SOAP 1\.2\s+HTTP GET\n[- ]+\nGetMeals\s+same\s+same\nGetThemes\s+same\s+same/m);
    const rep = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as CompareReport;
    expect(rep.summary).toMatchObject({ different: 0, error: 0, same: 6 });
    expect(readFileSync(join(dir, 'compare.md'), 'utf8')).toMatch(/## Target comparison: SAME/);
  });

  test('a target that departs: the cell, the first differing place and both values, exit 1', async () => {
    const dir = join(work, 'cmp-diff');
    const r = await cli(
      ['compare', '--config', cfg('mock', ops), '--config', replayCfg(), '--report-dir', dir, '--quiet'],
      { REPLAY_PW: 'mock-password' },
    );
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/GetMeals\s+same\s+same\s+DIFFERS 1\/2\s+same/);
    expect(r.out).toMatch(
      /✗ GetMeals \[get\] default: first difference at \/getMealsResult\/meals\/meal\[2\]\/id\/text\(\): mock "2", replay "two"/,
    );
    const rep = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as CompareReport;
    expect(rep.results.filter((x) => x.status === 'different')).toEqual([
      expect.objectContaining({
        operation: 'GetMeals',
        binding: 'get',
        case: 'default',
        path: '/getMealsResult/meals/meal[2]/id/text()',
        a: '2',
        b: 'two',
      }),
    ]);
    expect(rep.b.target.embedded).toBe(false);
    expect(readFileSync(join(dir, 'compare.md'), 'utf8')).toMatch(
      /## Target comparison: DIFFERENT[\s\S]*### Differences/,
    );
    // Structure only: the same elements occur on both sides.
    const s = await cli(
      [
        'compare',
        '--config',
        cfg('mock', ops),
        '--config',
        replayCfg(),
        '--ignore-values',
        '--report-dir',
        dir,
        '--quiet',
      ],
      { REPLAY_PW: 'mock-password' },
    );
    expect(s.code, s.out).toBe(0);
  });

  test('a target that rejects what the other answers is a difference; one that cannot be reached too', async () => {
    const wrongPw = await cli(
      [
        'compare',
        '--config',
        cfg('mock', ops),
        '--config',
        replayCfg(),
        '--report-dir',
        join(work, 'cmp-pw'),
        '--quiet',
      ],
      { REPLAY_PW: 'wrong' },
    );
    expect(wrongPw.code).toBe(1);
    expect(wrongPw.out).toMatch(/mock: answered with data; replay: rejected \(HTTP 500\)/);
    const down = cfg('down', {
      ...ops,
      target: { searchUrl: 'http://127.0.0.1:1', user: 'u', passwordEnv: 'REPLAY_PW' },
      bindings: ['get'],
      timeoutMs: 2000,
    });
    const r = await cli(
      ['compare', '--config', cfg('mock', ops), '--config', down, '--report-dir', join(work, 'cmp-down'), '--quiet'],
      { REPLAY_PW: 'x' },
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/down: no response: connection_refused/);
  });

  test('bad input exits 2 naming it', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['compare', '--config', cfg('mock', ops)], /exactly two --config files/],
      [
        ['compare', '--config', cfg('mock', ops), '--config', join(work, 'absent.json')],
        /cannot read config file .*absent\.json: ENOENT/,
      ],
      [
        ['compare', '--config', cfg('mock', ops), '--config', cfg('typo', { operatoins: [] })],
        /unknown key "operatoins"/,
      ],
      [
        ['compare', '--config', cfg('mock', ops), '--config', cfg('other', { operations: ['GetLanguages'] })],
        /no operation in common/,
      ],
      [
        [
          'compare',
          '--config',
          cfg('mock', ops),
          '--config',
          cfg('clash', { cases: { GetMeals: [{ id: 'default', params: { language: 'sv' } }] } }),
        ],
        /case "default" of GetMeals has other parameters in each config/,
      ],
      [['compare', 'a.json', 'b.json'], /no positional arguments/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(msg);
    }
  });
});
