/** The shared report model (matrix, columns, text hygiene) and the schema validator subset. */
import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../contract/catalogue.js';
import { buildMatrix, columnOf, consoleText, groupTests, skippedOperations, truncate, visibleText } from './model.js';
import { isRedactionMarker, validateJson } from '../schema/json.js';
import { fixtureReport } from '../../test/support/report.js';

describe('matrix model', () => {
  test('tests: rows grouped by operation, column and case in first-appearance order; no two triples merge', () => {
    const base = fixtureReport().results[0]!;
    const row = (operation: string, binding: string, c: string) => ({ ...base, operation, binding, case: c });
    const rows = [
      row('A\u0000soap11', 'get', 'x'),
      row('A', 'soap11', '\u0000get\u0000x'),
      row('A', 'soap11', 'y'),
      row('A\u0000soap11', 'get', 'x'),
      row('A', 'soap11,get', 'y'),
    ];
    const groups = groupTests(rows);
    expect(groups.map((g) => [g.operation, g.column, g.case, g.rows.length])).toEqual([
      ['A\u0000soap11', 'get', 'x', 2],
      ['A', 'soap11', '\u0000get\u0000x', 1],
      ['A', 'soap11', 'y', 1],
      ['A', 'equivalence', 'y', 1],
    ]);
    expect(groups[0]!.rows).toEqual([rows[0], rows[3]]);
  });

  test('columns: a single binding is its column; comma lists and binding_equivalence go to equivalence', () => {
    expect(columnOf({ binding: 'soap12', check: 'xsd_validity' })).toBe('soap12');
    expect(columnOf({ binding: 'soap11,get', check: 'whatever' })).toBe('equivalence');
    expect(columnOf({ binding: 'soap11, post', check: 'x' })).toBe('equivalence');
    expect(columnOf({ binding: 'get', check: 'binding_equivalence' })).toBe('equivalence');
  });

  test(
    "operations not called: those whose every row is a not-run row, with the skipped row's reason; an "
      + 'operation with no row, or with an exchange, is not one',
    () => {
      const base = fixtureReport().results[0]!;
      const row = (operation: string, check: string, status: 'passed' | 'skipped', message = '') => ({
        ...base,
        operation,
        check,
        status,
        message,
      });
      const report = {
        operations: ['CancelBooking', 'GetMeals', 'GetThemes', 'AmendmentRequest'],
        results: [
          row('CancelBooking', 'all', 'skipped', 'not run: CancelBooking changes state on the target'),
          row('GetMeals', 'all', 'skipped', 'not run: no booking left'),
          row('GetMeals', 'http_exchange', 'passed'),
          row('AmendmentRequest', 'all', 'passed', 'not run: first'),
          row('AmendmentRequest', 'all', 'skipped', 'not run: AmendmentRequest needs a booking'),
        ],
      };
      expect(skippedOperations(report)).toEqual([
        { operation: 'CancelBooking', reason: 'changes state on the target' },
        { operation: 'AmendmentRequest', reason: 'needs a booking' },
      ]);
    },
  );

  test('rows in catalogue order, grouped booking / reference / transfers', () => {
    const m = buildMatrix(fixtureReport());
    expect(m.map((g) => [g.group, g.rows.map((r) => r.operation)])).toEqual([
      ['booking', ['CancelBooking']],
      ['reference', ['GetMeals', 'GetLanguages']],
      ['transfers', ['SearchTransfers']],
    ]);
    const meals = m[1]!.rows[0]!;
    expect(Object.fromEntries(Object.entries(meals.cells).map(([k, v]) => [k, v.length]))).toEqual({
      soap11: 2,
      soap12: 3,
      get: 2,
      post: 1,
      equivalence: 1,
    });
  });

  test(
    "the hostile requests (their checks' rows, every row of a login variant) have a group of their own, "
      + "after the service's, before the probes",
    () => {
      const base = fixtureReport().results[0]!;
      const extra = [
        {
          ...base,
          operation: 'GetMeals',
          binding: 'get',
          case: 'login-password-extended',
          check: 'http_exchange',
          status: 'passed' as const,
        },
        {
          ...base,
          operation: 'GetMeals',
          binding: 'get',
          case: 'login-password-extended',
          check: 'login_rejected',
          status: 'failed' as const,
        },
        {
          ...base,
          operation: 'SearchTransfers',
          binding: 'post',
          case: 'default',
          check: 'secret_echoed',
          status: 'passed' as const,
        },
        {
          ...base,
          operation: 'NoSuchOperation',
          binding: 'soap11',
          case: 'unknown-operation-search',
          check: 'bad_request_rejected',
          status: 'passed' as const,
        },
      ];
      const r = fixtureReport([...fixtureReport().results, ...extra]);
      const m = buildMatrix(r);
      expect(m.map((g) => [g.group, g.rows.map((x) => x.operation)])).toEqual([
        ['booking', ['CancelBooking']],
        ['reference', ['GetMeals', 'GetLanguages']],
        ['transfers', ['SearchTransfers']],
        ['hostile_requests', ['GetMeals', 'SearchTransfers']],
        ['probes', ['NoSuchOperation']],
      ]);
      const hostile = m[3]!.rows[0]!;
      expect(hostile.cells.get.map((x) => x.check)).toEqual(['http_exchange', 'login_rejected']);
      // Not in the operation's own row.
      expect(m[1]!.rows[0]!.cells.get.some((x) => x.case === 'login-password-extended')).toBe(false);
    },
  );

  test('a full run has the 14 operations', () => {
    const r = fixtureReport([]);
    const full = { ...r, operations: OPERATIONS.map((o) => o.name) };
    const m = buildMatrix(full);
    expect(m.flatMap((g) => g.rows)).toHaveLength(14);
    expect(m.map((g) => g.rows.length)).toEqual([6, 7, 1]);
  });
});

describe('text hygiene', () => {
  test('XML-illegal characters become visible escapes; legal ones, astral and paired surrogates stay', () => {
    expect(visibleText('a\u0000b\u0007c\u001Fd\tn\nr\r')).toBe('a\\u0000b\\u0007c\\u001Fd\tn\nr\r');
    expect(visibleText('lone \uD800 and \uDC00, pair 😀, \uFFFE')).toBe('lone \\uD800 and \\uDC00, pair 😀, \\uFFFE');
  });

  test('console text also neutralises DEL/C1 controls and CR', () => {
    expect(consoleText('a\u001b[31mred\u009b\u007f\r\nx')).toBe('a\\u001B[31mred\\u009B\\u007F\nx');
  });

  test('truncate never splits a surrogate pair', () => {
    const t = truncate('ab😀cd', 3);
    expect(t).toEqual({ text: 'ab', truncated: true, length: 6 });
  });
});

describe('JSON Schema validation (ajv)', () => {
  test('types, required, additionalProperties, enum, pattern, minimum, items, $ref', () => {
    const schema = {
      type: 'object',
      required: ['a'],
      additionalProperties: false,
      properties: {
        a: { $ref: '#/$defs/n' },
        b: { type: 'array', items: { enum: ['x', 'y'] } },
        c: { type: 'string', pattern: '^z+$' },
      },
      $defs: { n: { type: 'integer', minimum: 1 } },
    };
    expect(validateJson({ a: 2, b: ['x'], c: 'zz' }, schema)).toEqual([]);
    expect(validateJson({ a: 0, b: ['q'], c: 'a', d: 1 }, schema)).toEqual([
      '/a: 0 is less than 1',
      '/b/0: expected one of "x", "y", got "q"',
      '/c: "a" does not match ^z+$',
      '/d: property not allowed',
    ]);
    expect(validateJson({ a: 1.5 }, schema)).toEqual(['/a: expected integer, got number']);
    expect(validateJson({}, schema)).toEqual(['/: missing required property a']);
  });

  test('a keyword the validator does not know is an error, not a silent pass (ajv strict mode)', () => {
    expect(() => validateJson({}, { type: 'object', oneOff: [] })).toThrow(/unknown keyword.*oneOff/);
  });

  test('redaction markers', () => {
    expect(['***', '', '[REDACTED]', '<redacted>'].every(isRedactionMarker)).toBe(true);
    expect(['hunter2', '*** ', 'x***'].some(isRedactionMarker)).toBe(false);
  });
});
