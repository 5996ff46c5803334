/**
 * Generated cases (case kind 'generated', issue 16): a conforming service may reject a generated
 * parameter set (an unparsable date), so the per-exchange checks of a valid call judge only an
 * exchange answered as a success (200, no SOAP fault); a rejection is judged only by the comparison
 * of bindings.
 */
import { describe, expect, test } from 'vitest';
import type { BindingId } from '../../src/contract/catalogue.js';
import { binding as bindingModule } from '../../src/bindings/index.js';
import { ALL_BINDINGS, contextFor, documentFor, findingsOf, outcomeOf } from '../../test/support/checks.js';
import { contentType } from '../../src/checks/content-type.js';
import { resultElement } from '../../src/checks/result-element.js';
import { soapEnvelope } from '../../src/checks/soap-envelope.js';
import { statusCode } from '../../src/checks/status-code.js';
import { xmlWellformed } from '../../src/checks/xml-wellformed.js';
import { CHECKS } from '../../src/checks/registry.js';

const gen = (b: BindingId, body: string, o: { status?: number; contentType?: string | null } = {}) =>
  contextFor('GetMeals', b, body, { ...o, caseKind: 'generated', caseId: 'gen-1-abcdef' });

describe('checks on a generated case', () => {
  test.each(ALL_BINDINGS)('an answer on %s is checked like a valid call: a broken one fails', (b) => {
    const ok = gen(b, documentFor('GetMeals', b));
    for (const c of [contentType, xmlWellformed, soapEnvelope, resultElement])
      expect(findingsOf(c, ok), c.name).toEqual([]);
    expect(
      findingsOf(contentType, gen(b, documentFor('GetMeals', b), { contentType: 'application/json; charset=utf-8' }))[0]
        ?.code,
    ).toBe('media_type_mismatch');
    expect(findingsOf(xmlWellformed, gen(b, '<getMealsResult><meals></getMealsResult>'))[0]?.code).toBe(
      'not_well_formed',
    );
  });

  test.each(ALL_BINDINGS)(
    'a rejection on %s (a fault, an HTTP 500 text, a 400) is left to the comparison of bindings',
    (b) => {
      const fault = bindingModule(b).encodeFault(500, 'Invalid value for parameter checkInDate.', 'client');
      const rejections = [
        gen(b, fault.body, { status: fault.status, contentType: fault.headers['content-type'] ?? null }),
        gen(b, 'System.FormatException: String was not recognized as a valid DateTime.', {
          status: 500,
          contentType: 'text/plain; charset=utf-8',
        }),
        gen(b, '', { status: 400, contentType: null }),
      ];
      for (const ctx of rejections) {
        for (const c of CHECKS) {
          const o = outcomeOf(c, ctx);
          const findings = Array.isArray(o) ? o : [];
          expect(findings, `${c.name} on ${b} (status ${ctx.response!.status})`).toEqual([]);
        }
      }
    },
  );

  test('status_code never judges a generated case; it still fails a valid call answered 500', () => {
    expect(outcomeOf(statusCode, gen('get', 'x', { status: 500 }))).toBe('not applicable');
    expect(findingsOf(statusCode, contextFor('GetMeals', 'get', 'x', { status: 500 }))[0]?.code).toBe('status_not_200');
  });

  test('a SOAP fault under 200 on a generated case is a rejection, not a result', () => {
    const fault = bindingModule('soap12').encodeFault(200, 'Server was unable to read request.', 'client');
    const ctx = gen('soap12', fault.body, { status: 200 });
    expect(outcomeOf(soapEnvelope, ctx)).toBe('not applicable');
    expect(outcomeOf(resultElement, ctx)).toBe('not applicable');
  });
});
