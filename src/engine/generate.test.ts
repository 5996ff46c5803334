import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findOperation, OPERATIONS } from '../contract/catalogue.js';
import { arbitraryOf, broadestCase, DEFAULT_EXAMPLES, DEFAULT_SEED, FIXED_LANGUAGES, generatedCases, isGeneratedCase, poolOf } from './generate.js';

const g = (o: Partial<{ seed: number; examples: number; languages: readonly string[] }> = {}) =>
  ({ seed: DEFAULT_SEED, examples: DEFAULT_EXAMPLES, languages: FIXED_LANGUAGES, ...o });
const op = (name: string) => findOperation(name)!;
const idx = (name: string) => OPERATIONS.indexOf(op(name));
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

describe('generated cases', () => {
  test('deterministic: the same seed gives the same parameter sets and ids; another seed other ones', () => {
    for (const o of OPERATIONS) {
      expect(generatedCases(o, g(), idx(o.name))).toEqual(generatedCases(o, g(), idx(o.name)));
    }
    const a = generatedCases(op('AmendmentRequest'), g({ examples: 8 }), 1);
    const b = generatedCases(op('AmendmentRequest'), g({ examples: 8, seed: 17 }), 1);
    expect(a.map((c) => c.params)).not.toEqual(b.map((c) => c.params));
    expect(a.map((c) => c.id).every(isGeneratedCase)).toBe(true);
    expect(new Set(a.map((c) => c.id)).size).toBe(8);
  });

  test('--examples 0 generates nothing; N gives N per operation, never the credentials', () => {
    expect(generatedCases(op('GetMeals'), g({ examples: 0 }), 6)).toEqual([]);
    for (const o of OPERATIONS) {
      const cs = generatedCases(o, g({ examples: 7 }), idx(o.name));
      expect(cs).toHaveLength(7);
      for (const c of cs) expect(Object.keys(c.params).filter((k) => k === 'userName' || k === 'password')).toEqual([]);
    }
  });

  test('whatever the seed, the default budget sends every boundary value of every parameter', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      for (const o of OPERATIONS) {
        const cs = generatedCases(o, g({ seed }), idx(o.name));
        for (const p of o.params) {
          if (p.name === 'userName' || p.name === 'password' || p.name === 'language' || !p.required) continue;
          const sent = new Set(cs.map((c) => c.params[p.name]));
          for (const v of poolOf(p)) expect(sent.has(v), `${o.name}.${p.name} = ${JSON.stringify(v)} (seed ${seed})`).toBe(true);
        }
      }
    }), { numRuns: 50 });
  });

  test('the pools hold what the issue names: delimiters, non-ASCII beyond the BMP, > 255 characters, padding, 0, int edges, 29 February, late evening', () => {
    const str = poolOf({ name: 'text', type: 'string', required: true }).join('');
    for (const c of ['+', '&', '=', '%', '#', '<', '"', '\'', ' ', 'ü', '😀']) expect(str).toContain(c);
    expect(poolOf({ name: 'text', type: 'string', required: true }).some((s) => s.length > 255 && s.startsWith(' ') && s.endsWith(' '))).toBe(true);
    expect(poolOf({ name: 'text', type: 'string', required: true })).toContain('');
    expect(poolOf({ name: 'bookingID', type: 'string', required: true })).toContain('0');
    expect(poolOf({ name: 'roomId', type: 'int', required: true })).toEqual(expect.arrayContaining(['0', '2147483647', '-2147483648', '-01']));
    const dates = poolOf({ name: 'checkInDate', type: 'dateTime', required: true });
    expect(dates.some((d) => d.includes('-02-29T'))).toBe(true);
    expect(dates.some((d) => /T23:59:\d\d$/.test(d))).toBe(true); // late, no zone
    expect(dates.some((d) => /T23:\d\d:\d\d[+-]/.test(d))).toBe(true); // late, with a zone
    expect(dates.some((d) => d.includes('-12-31T')) && dates.some((d) => d.includes('-01-01T'))).toBe(true);
  });

  test('check-out before check-in occurs within the default budget', () => {
    const cs = generatedCases(op('AmendmentPriceRequest'), g(), 0);
    expect(cs.some((c) => Date.parse(c.params.checkOutDate!) < Date.parse(c.params.checkInDate!))).toBe(true);
    expect(cs.some((c) => c.description.includes('check-out before check-in'))).toBe(true);
  });

  test('optional parameters: absent, present and empty, and given, each its own case', () => {
    const cs = generatedCases(op('SearchTransfers'), g(), idx('SearchTransfers'));
    for (const name of ['hotelID', 'currencies', 'arrivalDate']) {
      expect(cs.some((c) => c.params[name] === undefined), name).toBe(true);
      expect(cs.some((c) => c.params[name] === ''), name).toBe(true);
      expect(cs.some((c) => c.params[name] !== undefined && c.params[name] !== ''), name).toBe(true);
    }
  });

  test('language takes the values given (the target\'s isoCodes), every one over the run\'s operations', () => {
    const langs = ['en', 'de', 'fr', 'xx-YY'];
    const sent = new Set(OPERATIONS.flatMap((o) => generatedCases(o, g({ languages: langs }), idx(o.name)).map((c) => c.params.language)).filter(Boolean));
    expect([...sent].sort()).toEqual([...langs].sort());
    const fixed = new Set(OPERATIONS.flatMap((o) => generatedCases(o, g(), idx(o.name)).map((c) => c.params.language)).filter(Boolean));
    expect([...fixed].sort()).toEqual([...FIXED_LANGUAGES].sort());
  });

  test('beyond the pools, fast-check draws values an XML document can carry', () => {
    for (const o of OPERATIONS) {
      for (const c of generatedCases(o, g({ examples: 30 }), idx(o.name))) {
        for (const v of Object.values(c.params)) expect(XML_CHARS.test(v), JSON.stringify(v)).toBe(true);
      }
    }
    fc.assert(fc.property(arbitraryOf({ name: 'roomId', type: 'int', required: true }), (v) => /^-?\d+$/.test(v) && Math.abs(Number(v)) <= 2 ** 31));
    fc.assert(fc.property(arbitraryOf({ name: 'maxPrice', type: 'decimal', required: true }), (v) => /^-?\d+(\.\d+)?$/.test(v)));
    fc.assert(fc.property(arbitraryOf({ name: 'checkInDate', type: 'dateTime', required: true }), (v) => {
      const m = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(Z|[+-]\d\d:\d\d)?$/.exec(v);
      return m !== null && new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)).getUTCDate() === +m[3]!;
    }));
  });

  test('the broadest-result case leaves every optional parameter out; operations without one have none', () => {
    expect(broadestCase(op('SearchTransfers'), [{ params: { language: 'en', hotelID: '1' } }])).toEqual(expect.objectContaining({ id: 'gen-broadest', params: {} }));
    expect(broadestCase(op('GetMeals'), [{ params: { language: 'en' } }])).toBeUndefined();
  });

  test('no broadest-result case when a hand-written case already sends the same parameters', () => {
    expect(broadestCase(op('SearchTransfers'), [{ params: { resortID: '341' } }, { params: {} }])).toBeUndefined();
    expect(broadestCase(op('SearchTransfers'), [{ params: { userName: 'u', password: 'p' } }])).toBeUndefined();
    expect(broadestCase(op('SearchTransfers'), [{ params: { currencies: '' } }])).toEqual(expect.objectContaining({ params: {} }));
  });
});
