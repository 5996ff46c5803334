import { describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.js';
import type { ResultRow, RunReport, Status } from '../core/types.js';
import { validateReport } from '../schema/json.js';
import {
  applyExpectations,
  EXPECTATIONS_CHECK,
  expectationsSchemaRef,
  parseExpectations,
  TODO_REASON,
  updateExpectations,
  verdictWarning,
  type ExpectationsFile,
} from './expectations.js';
import { minimalReport } from '../../test/support/report.js';

function row(operation: string, binding: string, caseId: string, check: string, status: Status): ResultRow {
  return {
    operation,
    group: 'reference',
    binding,
    case: caseId,
    check,
    status,
    path: status === 'failed' ? '/x' : '',
    message: status === 'failed' ? 'broken' : '',
    reproduce: '',
    findings: status === 'failed' ? [{ check, code: 'value_differs' as const, path: '/x', message: 'broken' }] : [],
  };
}

const report = (rows: ResultRow[]): RunReport => minimalReport(rows);

const base = () =>
  report([
    row('GetMeals', 'get', 'default', 'shape', 'failed'),
    row('GetMeals', 'get', 'other-language', 'shape', 'failed'),
    row('GetMeals', 'soap11', 'default', 'shape', 'passed'),
    row('GetMeals', 'soap11,get', 'default', 'binding_equivalence', 'failed'),
    row('GetThemes', 'get', 'default', 'content_type', 'passed'),
    row('GetThemes', 'get', 'default', 'xsd_valid', 'skipped'),
  ]);

const file = (...expectations: ExpectationsFile['expectations']): ExpectationsFile => ({ expectations });

describe('applyExpectations', () => {
  test(
    'matching failed rows become known, others stay failed; the summary is recomputed and the report '
      + 'stays schema-valid',
    () => {
      const { report: r, verdicts } = applyExpectations(
        base(),
        file({ operation: 'GetMeals', binding: 'get', check: 'shape', case: 'default', reason: 'OPS-1' }),
      );
      expect(r.results.map((x) => x.status)).toEqual(['known', 'failed', 'passed', 'failed', 'passed', 'skipped']);
      expect(r.summary).toEqual({ passed: 2, failed: 2, skipped: 1, known: 1, total: 6 });
      expect(r.results[0]!.message).toBe('known deviation: "OPS-1" — broken');
      expect(verdicts).toEqual([expect.objectContaining({ state: 'ok', failing: 1 })]);
      expect(validateReport(r)).toEqual([]);
    },
  );

  test(
    'an entry without a case covers every case; a comma binding matches the equivalence row; exit-worthy '
      + 'rows are gone',
    () => {
      const { report: r } = applyExpectations(
        base(),
        file(
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' },
          { operation: 'GetMeals', binding: 'soap11, get', check: 'binding_equivalence', reason: 'r' },
        ),
      );
      expect(r.summary.failed).toBe(0);
      expect(r.summary.known).toBe(3);
    },
  );

  test('a stale entry (its rows pass) is a failed expectations row naming the entry', () => {
    const { report: r, verdicts } = applyExpectations(
      base(),
      file({ operation: 'GetThemes', binding: 'get', check: 'content_type', reason: 'was latin-1' }),
      { source: 'exp.json' },
    );
    expect(verdicts[0]!.state).toBe('stale');
    const extra = r.results.filter((x) => x.check === EXPECTATIONS_CHECK);
    expect(extra).toHaveLength(1);
    expect(extra[0]).toMatchObject({
      operation: 'GetThemes',
      binding: 'get',
      case: '*',
      status: 'failed',
      path: '/expectations/0',
    });
    expect(extra[0]!.message).toContain('no longer fails');
    expect(extra[0]!.message).toContain('exp.json');
    expect(r.summary.total).toBe(7);
    expect(validateReport(r)).toEqual([]);
  });

  test('an expired entry accepts nothing: its rows fail again and a row says it expired', () => {
    const e = { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r', expires: '2026-03-01' };
    const before = applyExpectations(base(), file(e), { today: '2026-03-01' });
    expect(before.report.summary.known).toBe(2);
    const after = applyExpectations(base(), file(e), { today: '2026-03-02' });
    expect(after.verdicts[0]!.state).toBe('expired');
    expect(after.report.summary.known).toBe(0);
    const extra = after.report.results.find((x) => x.check === EXPECTATIONS_CHECK)!;
    expect(extra.message).toContain('accepted until 2026-03-01');
  });

  test('an entry the run did not exercise, or whose rows were all skipped, is not judged', () => {
    const { report: r, verdicts } = applyExpectations(
      base(),
      file(
        { operation: 'CancelBooking', binding: 'get', check: 'shape', reason: 'r' },
        { operation: 'GetThemes', binding: 'get', check: 'xsd_valid', reason: 'r' },
      ),
    );
    expect(verdicts.map((v) => v.state)).toEqual(['unexercised', 'unexercised']);
    expect(r.results.filter((x) => x.check === EXPECTATIONS_CHECK)).toHaveLength(0);
  });

  test('a judge can refuse to call an entry stale (a shard that did not run every case)', () => {
    const { verdicts } = applyExpectations(
      base(),
      file({ operation: 'GetThemes', binding: 'get', check: 'content_type', reason: 'r' }),
      { judged: () => false },
    );
    expect(verdicts[0]!.state).toBe('unexercised');
  });

  test(
    'an entry with a defect code accepts rows failing only with that code; a new kind in the same check '
      + 'stays failed',
    () => {
      const twoKinds = (r: ResultRow): ResultRow => ({
        ...r,
        findings: [
          ...r.findings,
          { check: r.check, code: 'missing_required_element', path: '/y', message: 'missing y' },
        ],
      });
      const rows = base().results.map((r, i) => (i === 1 ? twoKinds(r) : r));
      const { report: r, verdicts } = applyExpectations(
        report(rows),
        file({ operation: 'GetMeals', binding: 'get', check: 'shape', code: 'value_differs', reason: 'OPS-2' }),
      );
      expect(r.results.slice(0, 2).map((x) => x.status)).toEqual(['known', 'failed']);
      expect(verdicts[0]).toMatchObject({ state: 'ok', failing: 2 });
      expect(r.expectations?.entries[0]).toMatchObject({ code: 'value_differs', state: 'ok' });
      expect(validateReport(r)).toEqual([]);
    },
  );

  test('an entry with a defect code is stale once its rows fail only with other codes', () => {
    const other = base().results.map((r) =>
      r.status === 'failed'
        ? { ...r, findings: r.findings.map((f) => ({ ...f, code: 'unknown_element' as const })) }
        : r,
    );
    const e = {
      operation: 'GetMeals',
      binding: 'get',
      check: 'shape',
      code: 'value_differs',
      reason: 'fixed, but another defect came',
    };
    const { report: r, verdicts } = applyExpectations(report(other), file(e));
    expect(verdicts[0]!.state).toBe('stale');
    expect(r.results.filter((x) => x.status === 'known')).toEqual([]);
    expect(r.results.find((x) => x.check === EXPECTATIONS_CHECK)!.findings[0]!.code).toBe('expectation_stale');
    expect(updateExpectations(report(other), file(e)).removed).toEqual([e]);
  });

  test('applying twice, or another file after the first, gives what applying once gives', () => {
    const f1 = file(
      { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'first' },
      { operation: 'GetThemes', binding: 'get', check: 'content_type', reason: 'stale' },
    );
    const once = applyExpectations(base(), f1).report;
    expect(applyExpectations(once, f1).report).toEqual(once);
    const f2 = file({ operation: 'GetMeals', binding: 'get', check: 'shape', case: 'default', reason: 'second' });
    expect(applyExpectations(once, f2).report).toEqual(applyExpectations(base(), f2).report);
  });
});

describe('updateExpectations', () => {
  test(
    'keeps reasons and expiry of entries that still fail, drops stale ones, keeps unjudged ones, adds the '
      + 'rest as TODO',
    () => {
      const old = file(
        { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'OPS-1', expires: '2099-01-01' },
        { operation: 'GetThemes', binding: 'get', check: 'content_type', reason: 'fixed since' },
        { operation: 'CancelBooking', binding: 'get', check: 'shape', reason: 'not run today' },
      );
      const up = updateExpectations(base(), old);
      expect(up.file.expectations).toEqual([
        { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'OPS-1', expires: '2099-01-01' },
        { operation: 'CancelBooking', binding: 'get', check: 'shape', reason: 'not run today' },
        {
          operation: 'GetMeals',
          binding: 'soap11,get',
          check: 'binding_equivalence',
          code: 'value_differs',
          reason: TODO_REASON,
        },
      ]);
      expect(up.removed.map((e) => e.reason)).toEqual(['fixed since']);
      // The new entry accepts nothing until it says why; then the run passes.
      expect(applyExpectations(base(), up.file).report.summary.failed).toBe(1);
      const explained = {
        ...up.file,
        expectations: up.file.expectations.map((e) => ({
          ...e,
          reason: e.reason === TODO_REASON ? 'OPS-2' : e.reason,
        })),
      };
      expect(applyExpectations(base(), explained).report.summary.failed).toBe(0);
      expect(parseExpectations(JSON.parse(JSON.stringify(up.file)), 'written')).toEqual(up.file);
    },
  );

  test(
    'from no file: one entry per defect (operation, binding, check, code) covering every case, not one '
      + 'per case (issue 22)',
    () => {
      const up = updateExpectations(base(), undefined);
      expect(up.file.expectations).toEqual([
        { operation: 'GetMeals', binding: 'get', check: 'shape', code: 'value_differs', reason: TODO_REASON },
        {
          operation: 'GetMeals',
          binding: 'soap11,get',
          check: 'binding_equivalence',
          code: 'value_differs',
          reason: TODO_REASON,
        },
      ]);
    },
  );

  test('generated case ids that change with --seed give the same file (issue 22)', () => {
    const seeded = (suffix: string) =>
      report([1, 2, 3, 4].map((i) => row('GetMeals', 'get', `gen-${i}-${suffix}${i}`, 'shape', 'failed')));
    const a = updateExpectations(seeded('3ab8b'), undefined).file;
    const b = updateExpectations(seeded('9f00c'), undefined).file;
    expect(a).toEqual(b);
    expect(a.expectations).toEqual([
      { operation: 'GetMeals', binding: 'get', check: 'shape', code: 'value_differs', reason: TODO_REASON },
    ]);
  });

  test('a row with two kinds of defect gets an entry per kind; together they cover it, one alone does not', () => {
    const two: ResultRow = {
      ...row('GetMeals', 'get', 'default', 'shape', 'failed'),
      findings: [
        { check: 'shape', code: 'missing_required_element', path: '/a', message: 'm' },
        { check: 'shape', code: 'unknown_element', path: '/b', message: 'm' },
      ],
    };
    const up = updateExpectations(report([two]), undefined);
    expect(up.file.expectations.map((e) => e.code)).toEqual(['missing_required_element', 'unknown_element']);
    const reasons = up.file.expectations.map((e) => ({ ...e, reason: `OPS-${e.code}` }));
    expect(applyExpectations(report([two]), file(...reasons)).report.summary).toMatchObject({ failed: 0, known: 1 });
    expect(applyExpectations(report([two]), file(reasons[0]!)).report.summary).toMatchObject({ failed: 1, known: 0 });
  });

  test("$schema: the one given for a new file, an existing file's own kept", () => {
    expect(updateExpectations(base(), undefined, { schema: '../schemas/expectations.schema.json' }).file.$schema).toBe(
      '../schemas/expectations.schema.json',
    );
    expect(
      updateExpectations(base(), { $schema: 'mine.json', expectations: [] }, { schema: 'other.json' }).file.$schema,
    ).toBe('mine.json');
    expect(expectationsSchemaRef('examples/expectations.json')).toBe('../schemas/expectations.schema.json');
  });
});

describe('an entry still marked TODO accepts nothing (issue 22)', () => {
  test('its rows stay failed, its state is unexplained, and the warning says why the run fails', () => {
    const { report: r, verdicts } = applyExpectations(
      base(),
      file({ operation: 'GetMeals', binding: 'get', check: 'shape', reason: TODO_REASON }),
      { source: 'x.json' },
    );
    expect(r.results.filter((x) => x.check === 'shape' && x.status === 'failed')).toHaveLength(2);
    expect(r.summary.known).toBe(0);
    expect(verdicts[0]).toMatchObject({ state: 'unexplained', failing: 2 });
    expect(r.expectations!.entries[0]!.state).toBe('unexplained');
    expect(validateReport(r)).toEqual([]);
    expect(verdictWarning(verdicts[0]!, 'x.json')).toBe(
      'x.json /expectations/0 (GetMeals [get] * :: shape) has no reason yet ("TODO: explain"): '
        + 'it accepts nothing, its 2 failing rows still fail the run; write why the deviation is acceptable',
    );
  });
  test('an entry whose rows pass is stale whatever its reason', () => {
    expect(
      applyExpectations(
        base(),
        file({ operation: 'GetThemes', binding: 'get', check: 'content_type', reason: TODO_REASON }),
      ).verdicts[0]!.state,
    ).toBe('stale');
  });
});

describe('parseExpectations', () => {
  const bad = (json: unknown) => () => parseExpectations(json, 'f.json');
  test('names what is wrong', () => {
    expect(bad({ expectations: [{ operation: 'GetMeals', binding: 'get', check: 'shape' }] })).toThrow(
      /missing required property reason/,
    );
    expect(bad({ expectations: [{ operation: 'getMeals', binding: 'get', check: 'shape', reason: 'r' }] })).toThrow(
      /unknown operation "getMeals" \(did you mean GetMeals/,
    );
    expect(bad({ expectations: [{ operation: 'GetMeals', binding: 'get', check: 'xsd', reason: 'r' }] })).toThrow(
      /unknown check "xsd"/,
    );
    expect(bad({ expectations: [{ operation: 'GetMeals', binding: 'soap13', check: 'shape', reason: 'r' }] })).toThrow(
      /binding/,
    );
    expect(
      bad({
        expectations: [{ operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r', expires: '2026-02-30' }],
      }),
    ).toThrow(/not a calendar date/);
    expect(
      bad({
        expectations: [
          { operation: 'GetMeals', binding: 'get', check: 'shape', code: 'missing_required_elemnt', reason: 'r' },
        ],
      }),
    ).toThrow(/unknown defect code "missing_required_elemnt" \(did you mean missing_required_element/);
    expect(
      bad({ expectations: [{ operation: 'GetMeals', binding: 'get', check: 'shape', code: 'Missing', reason: 'r' }] }),
    ).toThrow(/code/);
    expect(
      bad({
        expectations: [
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' },
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'again' },
        ],
      }),
    ).toThrow(/same deviation as \/expectations\/0/);
    expect(bad([])).toThrow(ConfigError);
  });
});
