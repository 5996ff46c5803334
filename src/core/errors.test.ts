import { describe, expect, test } from 'vitest';
import * as errors from './errors.js';

describe('harness errors', () => {
  test('every error class is a HarnessError with a stable CONF_ERR_ code, unique, and a name of its own', () => {
    const classes = Object.values(errors) as (new (m: string) => errors.HarnessError)[];
    expect(classes.length).toBeGreaterThanOrEqual(9);
    const codes = classes.map((C) => {
      const e = new C('x');
      expect(e).toBeInstanceOf(errors.HarnessError);
      expect(e.code).toMatch(/^CONF_ERR_[A-Z_]+$/);
      expect([2, 3]).toContain(e.exitCode);
      return e.code;
    });
    expect(new Set(codes).size).toBe(codes.length);
  });
  test("bad input exits 2; a fault of the harness's own data exits 3", () => {
    expect(new errors.UsageError('x').exitCode).toBe(2);
    expect(new errors.ReplayError('x').exitCode).toBe(2);
    expect(new errors.SerializeError('x').exitCode).toBe(3);
  });
});
