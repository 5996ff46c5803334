import { describe, expect, test } from 'vitest';
import { lexicalProblem } from './lexical.js';
import type { SimpleType } from '../contract/model.js';

const valid: Record<Exclude<SimpleType, 'string'>, string[]> = {
  int: ['0', '7', '+7', '-7', '007', ' 7 ', '\r\n\t7\n', '2147483647', '-2147483648'],
  decimal: ['12.5', '12.50', '+12.5', '-0.0', '.5', '5.', '12', ' 12.5 ', '000012.500000000000000000001'],
  double: ['1.5', '1.5E3', '1e-3', '-1E+3', 'INF', '-INF', 'NaN', '.5e1', '12', ' 1.5 '],
  boolean: ['true', 'false', '1', '0', ' true '],
  dateTime: [
    '2024-05-01T12:00:00',
    '2024-02-29T23:59:59.123+02:00',
    '2024-05-01T00:00:00Z',
    '-0044-03-15T12:00:00',
    '-0004-02-29T00:00:00',
    '12024-01-01T00:00:00',
    '2024-05-01T24:00:00',
    '2024-05-01T12:00:00-14:00',
  ],
  intList: ['1 2', ' 1  2 ', '1', '', '-1\t+2\n3'],
};

const invalid: Record<Exclude<SimpleType, 'string'>, string[]> = {
  int: ['', 'abc', '1.0', '1e3', '2147483648', '-2147483649', '1 2', '0x10', '+'],
  decimal: ['', '1e3', '1,5', '12.5.1', 'INF', 'NaN', '+-1', '.', '1 2'],
  double: ['', 'inf', '+INF', 'nan', '1e', 'e3', '1,5', 'Infinity'],
  boolean: ['', 'True', 'yes', 'TRUE', '2'],
  dateTime: [
    '',
    '2024-05-01',
    '2024-02-30T00:00:00',
    '2023-02-29T00:00:00',
    '2024-13-01T00:00:00',
    '2024-05-01T25:00:00',
    '2024-05-01T12:60:00',
    '2024-05-01T12:00:60',
    '2024-05-01 12:00:00',
    '0000-01-01T00:00:00',
    '02024-01-01T00:00:00',
    '2024-05-01T12:00:00+15:00',
    '2024-5-1T12:00:00',
    '2024-05-01T24:00:01',
    '-0001-02-29T00:00:00',
    '-0005-02-29T00:00:00',
  ],
  intList: ['1 a', '1,2', '1.5', '99999999999'],
};

describe('lexical spaces', () => {
  for (const [type, values] of Object.entries(valid)) {
    test.each(values)(`${type}: %j is valid`, (v) => {
      expect(lexicalProblem(type as SimpleType, v)).toBeUndefined();
    });
  }
  for (const [type, values] of Object.entries(invalid)) {
    test.each(values)(`${type}: %j is invalid`, (v) => {
      expect(lexicalProblem(type as SimpleType, v)).toEqual(expect.any(String));
    });
  }
  test('strings accept anything', () => {
    expect(lexicalProblem('string', '')).toBeUndefined();
  });
  test('a decimal with an exponent says why', () => {
    expect(lexicalProblem('decimal', '1.5E2')).toBe('exponent notation is not allowed in xs:decimal');
  });
});
