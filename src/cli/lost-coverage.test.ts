/**
 * `conformance diff` on lost coverage (issue 22): rows, cells, operations and bindings tested in OLD
 * and not in NEW, another target or seed, and the exit code. Reports built in memory.
 */
import { describe, expect, test } from 'vitest';
import type { ResultRow, Status } from '../core/types.js';
import { diffRuns } from './diff.js';
import { diffReports } from './diff-rows.js';
import { coverageLost, lostCoverage } from './lost-coverage.js';
import { runContext } from './run-context.js';
import { minimalReport } from '../../test/support/report.js';

function row(
  operation: string,
  binding: string,
  caseId: string,
  check: string,
  status: Status,
  message = '',
): ResultRow {
  return {
    operation,
    group: 'reference',
    binding,
    case: caseId,
    check,
    status,
    message,
    path: '',
    reproduce: '',
    findings: [],
  };
}

const report = minimalReport;

const REJECTED = 'answered with an in-band Error AuthenticationException';
/** A cell: default (valid) and wrong-credentials (negative), each with status_code and shape. */
const cell = (op: string, b: string, valid: Status, message = '') => [
  row(op, b, 'default', 'status_code', 'passed'),
  row(op, b, 'default', 'shape', valid, message),
  row(op, b, 'wrong-credentials', 'credentials_rejected', 'passed'),
  row(op, b, 'wrong-credentials', 'shape', 'passed'),
];
const full = () =>
  report([
    ...cell('GetMeals', 'soap11', 'passed'),
    ...cell('GetMeals', 'get', 'passed'),
    ...cell('GetThemes', 'soap11', 'passed'),
    ...cell('GetThemes', 'get', 'passed'),
  ]);

describe('lost coverage', () => {
  test(
    'every valid call rejected (in-band Error): the rows, the cells, the operations and bindings are lost '
      + 'although every row passes or is skipped',
    () => {
      const rejected = report([
        ...cell('GetMeals', 'soap11', 'skipped', REJECTED),
        ...cell('GetMeals', 'get', 'skipped', REJECTED),
        ...cell('GetThemes', 'soap11', 'skipped', REJECTED),
        ...cell('GetThemes', 'get', 'skipped', REJECTED),
      ]);
      // The row diff alone sees nothing: no failure anywhere.
      const rows = diffReports(full().results, rejected.results);
      expect([rows.newFailures, rows.fixed, rows.gone]).toEqual([[], [], []]);
      const l = lostCoverage(full(), rejected);
      expect(l.rows.map((r) => `${r.operation} ${r.binding} ${r.case} ${r.check} ${r.old}→${r.new}`)).toEqual([
        'GetMeals soap11 default shape passed→skipped',
        'GetMeals get default shape passed→skipped',
        'GetThemes soap11 default shape passed→skipped',
        'GetThemes get default shape passed→skipped',
      ]);
      expect(l.rows[0]!.message).toBe(REJECTED);
      expect(l.cells).toHaveLength(4);
      expect(l.cells[0]!.reason).toMatch(
        /^valid calls did not reach the data path: no result was walked \(shape default: answered with an in-band Error AuthenticationException\)$/,
      );
      expect(l.operations.map((o) => o.operation)).toEqual(['GetMeals', 'GetThemes']);
      expect(l.bindings.map((b) => b.binding)).toEqual(['soap11', 'get']);
      expect(coverageLost(diffRuns(full(), rejected))).toBe(true);
    },
  );

  test("the report's own `untested` cells count as not reaching the data path, with their reason", () => {
    const rejected = report(full().results, {
      untested: [
        {
          operation: 'GetThemes',
          binding: 'get',
          reason: 'every valid call was rejected with AuthenticationException',
        },
      ],
    });
    const l = lostCoverage(full(), rejected);
    expect(l.cells).toEqual([
      {
        operation: 'GetThemes',
        binding: 'get',
        reason: 'valid calls did not reach the data path: every valid call was rejected with AuthenticationException',
      },
    ]);
    expect(l.operations).toEqual([]);
    expect(l.bindings).toEqual([]);
  });

  test('an operation not called now, and a binding not selected now, are lost with why', () => {
    const narrowed = report(
      [
        ...cell('GetMeals', 'soap11', 'passed'),
        row(
          'GetThemes',
          'soap11',
          'default',
          'all',
          'skipped',
          'not run: GetThemes changes state on the target: not called without --allow-mutations',
        ),
      ],
      { bindings: ['soap11'] },
    );
    const l = lostCoverage(full(), narrowed);
    expect(l.cells).toEqual([
      { operation: 'GetMeals', binding: 'get', reason: 'not in the new run' },
      {
        operation: 'GetThemes',
        binding: 'soap11',
        reason: 'not called: changes state on the target: not called without --allow-mutations',
      },
      { operation: 'GetThemes', binding: 'get', reason: 'not in the new run' },
    ]);
    expect(l.operations.map((o) => o.operation)).toEqual(['GetThemes']);
    expect(l.bindings.map((b) => b.binding)).toEqual(['get']);
    expect(l.rows.filter((r) => r.new === 'absent')).toHaveLength(12);
  });

  test('a failure now skipped is lost coverage, not fixed', () => {
    const before = report([
      row('GetMeals', 'get', 'default', 'shape', 'failed'),
      row('GetMeals', 'get', 'default', 'status_code', 'passed'),
    ]);
    const after = report([
      row('GetMeals', 'get', 'default', 'shape', 'skipped', REJECTED),
      row('GetMeals', 'get', 'default', 'status_code', 'passed'),
    ]);
    const d = diffRuns(before, after);
    expect(d.fixed).toEqual([]);
    expect(d.lostCoverage!.rows.map((r) => `${r.check} ${r.old}→${r.new}`)).toEqual(['shape failed→skipped']);
  });

  test('the same run twice, or one that tests more: nothing lost', () => {
    expect(coverageLost(diffRuns(full(), full()))).toBe(false);
    const less = report(cell('GetMeals', 'soap11', 'passed'));
    expect(coverageLost(diffRuns(less, full()))).toBe(false);
  });

  test('another seed: generated rows are not compared one by one, and the context says so; another target too', () => {
    const gen = (suffix: string, seed: number) =>
      report([...cell('GetMeals', 'get', 'passed'), row('GetMeals', 'get', `gen-1-${suffix}`, 'shape', 'passed')], {
        generation: { seed, examples: 1, languagesFrom: 'GetLanguages' },
      });
    expect(lostCoverage(gen('aaaaaa', 16), gen('bbbbbb', 17)).rows).toEqual([]);
    expect(lostCoverage(gen('aaaaaa', 16), gen('bbbbbb', 16)).rows.map((r) => r.case)).toEqual(['gen-1-aaaaaa']);
    expect(runContext(gen('a', 16), gen('a', 17))).toEqual([
      'other generated cases: seed 16, 1 per operation → seed 17, 1 per operation (their rows are not '
        + 'compared one by one; repeat with --seed 16)',
    ]);
    const elsewhere = report(full().results, { target: { ...full().target, bookUrl: 'http://other' } });
    expect(runContext(full(), elsewhere)).toEqual(['another target: book URL http://t → http://other']);
    expect(runContext(full(), full())).toEqual([]);
    // The embedded mock's port changes every run: not another target.
    const mock = (port: number) =>
      report([], { target: { ...full().target, bookUrl: `http://127.0.0.1:${port}`, embedded: true } });
    expect(runContext(mock(1111), mock(2222))).toEqual([]);
  });
});
