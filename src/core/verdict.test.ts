import { describe, expect, test } from 'vitest';
import type { ResultRow } from './types.js';
import { contractFailures, passedUnreached } from './verdict.js';

const row = (status: ResultRow['status'], binding: string, operation = 'GetMeals'): ResultRow =>
  ({ operation, binding, check: 'status_code', status, message: '' }) as unknown as ResultRow;

describe('the rows in untested cells', () => {
  const results = [
    row('passed', 'soap11'),
    row('passed', 'soap11,get'),
    row('passed', ''),
    row('passed', 'get', 'Search'),
    row('failed', 'soap11'),
    row('failed', 'get', 'Search'),
  ];
  test('with no untested cell none is in one (the short cut: no row split into its bindings)', () => {
    expect(passedUnreached({ results })).toBe(0);
    expect(passedUnreached({ results, untested: [] })).toBe(0);
    expect(contractFailures({ results, untested: [] })).toHaveLength(2);
  });
  test('with untested cells, the rows all of whose bindings are in them', () => {
    const untested = [
      { operation: 'GetMeals', binding: 'soap11', reason: 'r', cause: 'address' as const },
      { operation: 'GetMeals', binding: 'get', reason: 'r', cause: 'failing' as const },
    ];
    expect(passedUnreached({ results, untested })).toBe(2);
    // Only the address cell's failures are symptoms.
    expect(contractFailures({ results, untested }).map((r) => r.operation)).toEqual(['Search']);
  });
});
