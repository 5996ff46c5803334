import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalUntyped, canonicalValue } from './values.js';

const same = (t: Parameters<typeof canonicalValue>[0], a: string, b: string) =>
  expect(canonicalValue(t, a)).toBe(canonicalValue(t, b));
const differ = (t: Parameters<typeof canonicalValue>[0], a: string, b: string) =>
  expect(canonicalValue(t, a)).not.toBe(canonicalValue(t, b));

describe('values in their XSD value space', () => {
  test('decimal: lexical forms of one value are equal, other values differ', () => {
    same('decimal', '12.50', '12.5');
    same('decimal', '+12.5', '12.5');
    same('decimal', '012.500', '12.5');
    same('decimal', ' 12.5\n', '12.5');
    same('decimal', '-0.0', '0');
    same('decimal', '.5', '0.50');
    same('decimal', '100', '100.00');
    differ('decimal', '12.5', '12.51');
    differ('decimal', '-12.5', '12.5');
    differ('decimal', '100', '10');
  });
  test('int: sign and leading zeros do not matter', () => {
    same('int', '+1', '1');
    same('int', '007', '7');
    same('int', '-0', '0');
    differ('int', '1', '2');
    differ('int', '-1', '1');
  });
  test('boolean: 1 is true and 0 is false', () => {
    same('boolean', 'true', '1');
    same('boolean', 'false', '0');
    differ('boolean', 'true', 'false');
    differ('boolean', '1', '0');
  });
  test('dateTime: equal instants in other zones or with zero fractions are equal', () => {
    same('dateTime', '2027-03-10T10:00:00Z', '2027-03-10T11:00:00+01:00');
    same('dateTime', '2027-03-10T23:30:00-02:00', '2027-03-11T01:30:00Z');
    same('dateTime', '2027-03-10T10:00:00.000', '2027-03-10T10:00:00');
    same('dateTime', '2027-03-10T10:00:00.5Z', '2027-03-10T10:00:00.500Z');
    differ('dateTime', '2027-03-10T10:00:00', '2027-03-10T10:00:00Z');
    differ('dateTime', '2027-03-10T10:00:00Z', '2027-03-10T10:00:01Z');
    differ('dateTime', '2027-03-10T10:00:00.5Z', '2027-03-10T10:00:00.51Z');
  });
  test('double and intList', () => {
    same('double', '1e2', '100');
    same('double', '1.50', '1.5');
    same('double', 'INF', '+INF');
    differ('double', 'INF', '-INF');
    same('intList', '1  2\t3', '1 2 3');
    same('intList', '+1 02', '1 2');
    differ('intList', '1 2', '2 1');
  });
  test('string is compared exactly, enumerations collapse surrounding whitespace', () => {
    differ('string', 'Zürich ', 'Zürich');
    differ('string', 'a', 'A');
    same('enum', ' Active ', 'Active');
    differ('enum', 'Active', 'NotActive');
  });
  test('an invalid lexical form never equals a valid one, nor another invalid one', () => {
    differ('int', '1.0', '1');
    differ('decimal', '1e3', '1000');
    differ('boolean', 'yes', 'true');
    differ('dateTime', '2027-02-30T00:00:00', '2027-03-02T00:00:00');
    differ('int', 'x', 'y');
  });
  test('untyped ("not shown") text: trimmed, numbers compared as decimals', () => {
    expect(canonicalUntyped(' 12.50 ')).toBe(canonicalUntyped('12.5'));
    expect(canonicalUntyped('abc')).not.toBe(canonicalUntyped('abd'));
  });
  test('int: the value as BigInt reads it, short and long, signed and zero-padded', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.constantFrom('', '+', '0', '00'), (n, pad) => {
        const written = n < 0n ? `-${pad.replace('+', '')}${-n}` : `${pad}${n}`;
        expect(canonicalValue('int', written)).toBe(n.toString());
      }),
      { numRuns: 500 },
    );
    expect(canonicalValue('int', '-0')).toBe('0');
    expect(canonicalValue('int', '999999999999999')).toBe('999999999999999');
    expect(canonicalValue('int', '9999999999999999')).toBe('9999999999999999');
  });
  test('decimal: the value whatever its sign, leading zeros, point and trailing zeros', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), maxLength: 6 });
    fc.assert(
      fc.property(fc.constantFrom('', '+', '-'), digits, fc.boolean(), digits, (sign, int, point, frac) => {
        fc.pre(int !== '' || (point && frac !== ''));
        const written = `${sign}${int}${point ? `.${frac}` : ''}`;
        const i = int.replace(/^0+/, '') || '0';
        const f = point ? frac.replace(/0+$/, '') : '';
        const abs = f ? `${i}.${f}` : i;
        expect(canonicalValue('decimal', written)).toBe(sign === '-' && abs !== '0' ? `-${abs}` : abs);
        if (!point)
          expect(canonicalValue('int', written)).toBe(
            int === '' ? canonicalValue('int', 'x') : sign === '-' && i !== '0' ? `-${i}` : i,
          );
      }),
      { numRuns: 2000 },
    );
  });
});
