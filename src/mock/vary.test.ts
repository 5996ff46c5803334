/** Variation mode: other legitimate forms per binding, the same data for every binding of a request. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { documentedDifference } from '../contract/binding-differences.js';
import { canonicalEntries } from '../equivalence/canonical.js';
import { canonicalValue } from '../equivalence/values.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { presentationFor, relexical, requestSeed, varyData } from './vary.js';
import { validSimple } from './serialize.js';
import { startMock, type RunningMock } from './server.js';
import { call, resultElement, validParams } from '../../test/support/mock.js';

const NS = DEFAULT_NAMESPACES;
const VARIANTS = [0, 1, 2, 3] as const;

describe('relexical: another lexical form of the same value', () => {
  const check = (type: 'int' | 'decimal' | 'dateTime' | 'boolean', s: string) => {
    for (const v of VARIANTS) {
      const other = relexical(type, s, v);
      expect(validSimple(type, other), `${type} ${s} → ${other}`).toBe(true);
      expect(canonicalValue(type, other), `${type} ${s} → ${other}`).toBe(canonicalValue(type, s));
    }
  };
  test('ints of xs:int', () =>
    fc.assert(fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (n) => check('int', String(n)))));
  test('decimals with any number of fraction digits', () =>
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.integer({ min: 0, max: 4 }),
        (units, digits) => {
          const abs = (units < 0n ? -units : units).toString().padStart(digits + 1, '0');
          check(
            'decimal',
            `${units < 0n ? '-' : ''}${digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs}`,
          );
        },
      ),
    ));
  test('dateTimes, local and in UTC', () =>
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.boolean(),
        (d, z) => check('dateTime', `${d.toISOString().slice(0, 19)}${z ? 'Z' : ''}`),
      ),
    ));
  test('booleans', () => {
    for (const b of ['true', 'false', '1', '0']) check('boolean', b);
  });
  test('the variants really are other forms', () => {
    expect(VARIANTS.map((v) => relexical('int', '7', v))).toEqual(['7', '+7', '007', ' 7 ']);
    expect(VARIANTS.map((v) => relexical('decimal', '12.50', v))).toEqual(['12.50', '12.5', '+12.5000', '012.50']);
    expect(relexical('dateTime', '2025-05-22T12:00:00Z', 1)).toBe('2025-05-22T14:00:00+02:00');
    expect(relexical('dateTime', '2025-01-01T02:00:00Z', 2)).toBe('2024-12-31T20:30:00-05:30');
    expect(relexical('boolean', 'true', 1)).toBe('1');
  });
});

describe('presentationFor: a choice per binding and request', () => {
  test('over many requests every choice of every dimension is taken, and the bindings of one request differ', () => {
    const seen = new Map<string, Set<unknown>>();
    let allSame = 0;
    for (let seed = 0; seed < 400; seed++) {
      const ps = BINDINGS.map((b) => presentationFor(b, seed * 2654435761));
      for (const p of ps) for (const [k, v] of Object.entries(p)) seen.set(k, (seen.get(k) ?? new Set()).add(v));
      if (ps.every((p) => JSON.stringify(p) === JSON.stringify(ps[0]))) allSame++;
    }
    expect(allSame).toBe(0);
    expect([...seen.get('envelopePrefix')!].sort()).toEqual(['SOAP-ENV', 'env', 's', 'soap']);
    expect(seen.get('declaration')!.size).toBe(6);
    expect(seen.get('soapHeader')!.size).toBe(3);
    for (const k of ['namespaceAt', 'attributeQuote', 'comments', 'xsiType', 'prefixScope', 'attributeOrder', 'indent'])
      expect(seen.get(k)!.size, k).toBeGreaterThanOrEqual(2);
    expect(seen.get('text')!.size).toBe(3);
    expect(seen.get('newline')!.size).toBe(2);
    expect(seen.get('xsiAt')!.size).toBe(3);
    expect(seen.get('lexical')!.size).toBe(4);
    expect(seen.get('contentType')!.size).toBe(4);
    expect(seen.get('resultPrefix')!.size).toBe(3);
  });
});

describe('varyData: the same for every binding, only what the contract allows', () => {
  test('decided by the operation and its parameters, not the credentials or foreign parameters', () => {
    const o = findOperation('GetMeals')!;
    const p = { userName: 'u', password: 'p', language: 'de' };
    expect(requestSeed(o, p)).toBe(requestSeed(o, { ...p, userName: 'x', password: 'y', notAParam: '1' }));
    expect(requestSeed(o, p)).not.toBe(requestSeed(o, { ...p, language: 'fr' }));
  });
  test('an in-band Error keeps its Error and gains nothing but ErrorAttributes', () => {
    const o = findOperation('GetRoomTypes')!;
    const err = { Error: { ErrorType: 'AuthenticationFailed', Message: 'no' } };
    const varied = varyData(o, { language: 'en' }, err);
    // The Error stays as it is: at most ErrorAttributes (key/value items, the real service's style) follow it.
    expect(varied).toEqual(expect.objectContaining({ Error: err.Error }));
    expect(Object.keys(varied as object).filter((k) => k !== 'Error' && k !== 'ErrorAttributes')).toEqual([]);
  });
});

describe('the mock in variation mode', () => {
  let mock: RunningMock;
  const validator = createDocumentValidator(NS);
  // One request on four bindings: stateless, or the state-changing calls would change the booking
  // between the bindings (the stateful variation mode is src/mock/state.test.ts's).
  beforeAll(async () => {
    mock = await startMock({ port: 0, vary: true, stateless: true });
  });
  afterAll(() => mock.close());

  test.for(OPERATIONS.map((o) => o.name))(
    '%s: four XSD-valid bodies, written differently, equal by value',
    async (name) => {
      const o = findOperation(name)!;
      const bodies = new Map<BindingId, string>();
      for (const b of BINDINGS) {
        const r = await call(mock.url, NS, o, b, validParams(o));
        expect(r.status, r.body).toBe(200);
        const outcome = validator.validate(r.body.replace(/^\uFEFF/, ''));
        expect(outcome.xsdErrors, r.body.slice(0, 600)).toEqual([]);
        bodies.set(b, r.body);
      }
      expect(new Set(bodies.values()).size).toBeGreaterThan(1);
      const canon = (b: BindingId) =>
        canonicalEntries(
          resultElement(o, b, bodies.get(b)!.replace(/^\uFEFF/, '')),
          o.resultType,
          NS[o.ns],
          (p) => documentedDifference(o.name, p) !== undefined,
        );
      for (const b of BINDINGS) expect(canon(b), b).toEqual(canon('soap11'));
    },
  );
});
