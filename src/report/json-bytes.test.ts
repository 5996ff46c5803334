/** conformance.json's bytes: jsonText's answer, encoded, whatever characters the report holds. */
import { describe, expect, test } from 'vitest';
import { holdsJsonUnsafe, jsonBytes } from './json-bytes.js';
import { jsonText } from './model.js';
import { fixtureReport } from '../../test/support/report.js';

const slow = (value: unknown) => Buffer.from(`${jsonText(JSON.stringify(value, null, 2))}\n`, 'utf8');

/** Every character jsonText escapes, and the characters beside each and others sharing their first UTF-8 byte. */
const UNSAFE = [0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), 0x61c, 0x200e, 0x200f];
for (let c = 0x2028; c <= 0x202e; c++) UNSAFE.push(c);
for (let c = 0x2066; c <= 0x2069; c++) UNSAFE.push(c);
const SAFE = [0x7e, 0xa0, 0xb7, 0xe9, 0x61b, 0x61d, 0x600, 0x200d, 0x2010, 0x2027, 0x202f, 0x2065, 0x206a, 0x2192];
SAFE.push(0x2194, 0x2040, 0x20ac, 0x1f600, 0x10000);

describe('jsonBytes', () => {
  test('each character jsonText escapes is found, alone or among safe ones; the safe ones are not', () => {
    for (const c of UNSAFE) {
      const text = `a ${String.fromCodePoint(0xe9, 0x2192, 0x2010)} b ${String.fromCodePoint(c)} c`;
      expect(holdsJsonUnsafe(Buffer.from(text)), c.toString(16)).toBe(true);
      expect(jsonBytes({ text })).toEqual(slow({ text }));
    }
    for (const c of SAFE) {
      const text = `x${String.fromCodePoint(c)}`;
      expect(holdsJsonUnsafe(Buffer.from(text)), c.toString(16)).toBe(false);
      expect(jsonBytes({ text })).toEqual(slow({ text }));
    }
  });

  test('a report is encoded as jsonText writes it, with and without such characters, lone surrogates too', () => {
    const report = fixtureReport();
    expect(jsonBytes(report)).toEqual(slow(report));
    const hostile = structuredClone(report);
    hostile.results = [{ ...report.results[0]!, message: 'exe.\u202Etxt \uD800 \u0085 end\u2029' }];
    expect(jsonBytes(hostile)).toEqual(slow(hostile));
    expect(jsonBytes(hostile).toString('utf8')).toContain('\\u202e');
  });
});
