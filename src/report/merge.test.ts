import { describe, expect, test } from 'vitest';
import { UsageError } from '../core/errors.js';
import type { ResultRow, RunReport } from '../core/types.js';
import { mergeReports, type MergeInput } from './merge.js';
import { validateReport } from '../schema/json.js';
import { verdictOfReport } from '../core/verdict.js';

function row(operation: string, caseId: string, status: ResultRow['status'] = 'passed'): ResultRow {
  return {
    operation,
    group: 'reference',
    binding: 'get',
    case: caseId,
    check: 'shape',
    status,
    message: '',
    path: '',
    reproduce: '',
    findings: [],
  };
}

function report(
  rows: ResultRow[],
  over: Partial<RunReport> = {},
  target: Partial<RunReport['target']> = {},
): RunReport {
  const s = { passed: 0, failed: 0, skipped: 0, known: 0, total: rows.length };
  for (const r of rows) s[r.status]++;
  return {
    tool: { name: 'accommodation-conformance', version: '0.1.0' },
    target: {
      bookUrl: 'http://127.0.0.1:1',
      searchUrl: 'http://127.0.0.1:1',
      transfersUrl: 'http://127.0.0.1:1',
      namespaces: { book: 'urn:b', search: 'urn:s' },
      user: 'u',
      password: '***',
      embedded: true,
      ...target,
    },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    bindings: ['get'],
    operations: ['GetMeals', 'GetThemes'],
    summary: s,
    results: rows,
    ...over,
  };
}

const shard = (index: number, count = 2, plan = 'a'.repeat(64)) => ({ index, count, plan });

describe('mergeReports', () => {
  test('joins rows in catalogue order, recounts, spans the time of all inputs', () => {
    const a: MergeInput = {
      source: 'a',
      report: report([row('GetThemes', 'default'), row('GetMeals', 'default', 'failed')]),
      shard: shard(1),
    };
    const b: MergeInput = {
      source: 'b',
      report: report(
        [row('GetMeals', 'other-language')],
        { startedAt: '2026-01-01T00:00:05.000Z' },
        { bookUrl: 'http://127.0.0.1:2' },
      ),
      shard: shard(2),
    };
    const m = mergeReports([a, b]);
    expect(m.results.map((r) => `${r.operation}/${r.case}`)).toEqual([
      'GetMeals/default',
      'GetMeals/other-language',
      'GetThemes/default',
    ]);
    expect(m.summary).toEqual({ passed: 2, failed: 1, skipped: 0, known: 0, total: 3 });
    expect(m.durationMs).toBe(6000);
    expect(validateReport(m)).toEqual([]);
  });

  test(
    "the shards' transient answers are the run's: summed per cell; a shard's outage makes the merged run "
      + 'OUTAGE (it was lost before)',
    () => {
      const cell = (binding: string, answers: number) => ({
        operation: 'GetMeals',
        binding,
        exchanges: 50,
        answers,
        retries: answers,
        ambiguous: 0,
      });
      const t = (unhealthy: boolean, cells: ReturnType<typeof cell>[]) => ({
        exchanges: cells.reduce((n, c) => n + c.exchanges, 0),
        answers: cells.reduce((n, c) => n + c.answers, 0),
        retries: cells.reduce((n, c) => n + c.retries, 0),
        ambiguous: 0,
        maxPercent: 20,
        unhealthy,
        cells,
      });
      const a: MergeInput = {
        source: 'a',
        report: report([row('GetThemes', 'default')], { transient: t(false, [cell('get', 2)]) }),
        shard: shard(1),
      };
      const b: MergeInput = {
        source: 'b',
        report: report([row('GetMeals', 'default')], { transient: t(false, [cell('get', 3), cell('post', 1)]) }),
        shard: shard(2),
      };
      const m = mergeReports([a, b]);
      expect(m.transient).toEqual({
        exchanges: 150,
        answers: 6,
        retries: 6,
        ambiguous: 0,
        maxPercent: 20,
        unhealthy: false,
        cells: [{ ...cell('get', 5), exchanges: 100 }, cell('post', 1)],
      });
      expect(verdictOfReport(m).verdict).toBe('PASS');
      expect(validateReport(JSON.parse(JSON.stringify(m)))).toEqual([]);
      const down: MergeInput = { ...b, report: { ...b.report, transient: t(true, [cell('get', 40)]) } };
      expect(verdictOfReport(mergeReports([a, down])).verdict).toBe('OUTAGE');
      // A shard without transient answers writes none: the merged run has what the others had.
      expect(mergeReports([{ ...a, report: report([row('GetThemes', 'default')]) }, b]).transient).toEqual(
        b.report.transient,
      );
      expect(
        mergeReports([
          { ...a, report: report([row('GetThemes', 'default')]) },
          { ...b, report: report([row('GetMeals', 'default')]) },
        ]).transient,
      ).toBeUndefined();
    },
  );

  test('refuses a missing shard, a shard twice, shards of other plans or counts', () => {
    const a = { source: 'a', report: report([row('GetMeals', 'default')]), shard: shard(1) };
    const b = { source: 'b', report: report([row('GetThemes', 'default')]), shard: shard(2) };
    expect(() => mergeReports([a])).toThrow(/shard 2\/2 missing/);
    expect(() => mergeReports([a, { ...a, source: 'a2' }])).toThrow(/shard 1\/2 is given twice/);
    expect(() => mergeReports([a, { ...b, shard: shard(2, 2, 'b'.repeat(64)) }])).toThrow(/different plans/);
    expect(() => mergeReports([a, { ...b, shard: shard(2, 3) }])).toThrow(/of 2 shards/);
    expect(() => mergeReports([a, { source: 'plain', report: b.report }])).toThrow(/not a shard/);
    expect(() => mergeReports([])).toThrow(UsageError);
  });

  test('refuses overlapping reports and reports of other targets or bindings', () => {
    const a = { source: 'a', report: report([row('GetMeals', 'default')]) };
    expect(() => mergeReports([a, { source: 'b', report: report([row('GetMeals', 'default')]) }])).toThrow(
      /overlap: GetMeals case default is in a and in b/,
    );
    const b = (t: Partial<RunReport['target']>, over: Partial<RunReport> = {}) => ({
      source: 'b',
      report: report([row('GetThemes', 'default')], over, t),
    });
    expect(() => mergeReports([a, b({ embedded: false })])).toThrow(/different targets/);
    expect(() => mergeReports([a, b({ namespaces: { book: 'urn:x', search: 'urn:s' } })])).toThrow(/namespaces/);
    expect(() => mergeReports([a, b({}, { bindings: ['get', 'post'] })])).toThrow(/bindings/);
    const remote = { embedded: false, bookUrl: 'https://x.example' };
    expect(() =>
      mergeReports([
        { source: 'a', report: report([row('GetMeals', 'default')], {}, remote) },
        b({ ...remote, bookUrl: 'https://y.example' }),
      ]),
    ).toThrow(/bookUrl differs/);
    expect(mergeReports([a, b({})]).summary.total).toBe(2);
  });
});

describe('generated cases (issue 16)', () => {
  const g = (seed: number) => ({ generation: { seed, examples: 4, languagesFrom: 'the fixed list (a shard)' } });
  test("the merged report keeps the shards' seed; shards of another seed or budget are refused", () => {
    const a: MergeInput = { source: 'a', report: report([row('GetMeals', 'gen-1-aaaaaa')], g(7)), shard: shard(1) };
    const b: MergeInput = { source: 'b', report: report([row('GetThemes', 'gen-1-bbbbbb')], g(7)), shard: shard(2) };
    expect(mergeReports([a, b]).generation).toEqual(g(7).generation);
    expect(() => mergeReports([a, { ...b, report: report([row('GetThemes', 'gen-1-bbbbbb')], g(8)) }])).toThrow(
      /b was run with seed 8, 4 examples, a with seed 7, 4 examples/,
    );
    expect(() => mergeReports([a, { ...b, report: report([row('GetThemes', 'default')]) }])).toThrow(
      /no generated cases/,
    );
  });
});
