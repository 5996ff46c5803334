import { beforeAll, describe, expect, test } from 'vitest';
import { CHECK_NAMES, CHECKS, runChecks, selectChecks, type CheckRun } from './registry.js';
import { ALL_BINDINGS, at, contextFor, documentFor, NS, sampleResult, type DocOptions } from '../../test/support/checks.js';
import { OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import type { DocumentValidator } from './context.js';
import type { Check } from './types.js';

let validator: DocumentValidator;
beforeAll(() => { validator = createDocumentValidator(NS); });

/** check name → findings count, or 'skip'. */
const summary = (runs: CheckRun[]) => Object.fromEntries(runs.map((r) => [r.check.name, Array.isArray(r.outcome) ? r.outcome.length : 'skip']));

describe('registry', () => {
  test('names are unique, snake_case, in run order', () => {
    expect(CHECK_NAMES).toEqual([
      'status_code', 'content_type', 'xml_wellformed', 'soap_envelope', 'result_element', 'xsd_valid', 'shape', 'binding_rules', 'credentials_rejected',
      'bad_request_rejected', 'dtd_refused', 'login_rejected', 'secret_echoed',
    ]);
    for (const c of CHECKS) {
      expect(c.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(c.description.length).toBeGreaterThan(20);
    }
  });

  test('selectChecks keeps run order, defaults to all and names unknown checks', () => {
    expect(selectChecks()).toBe(CHECKS);
    expect(selectChecks([])).toBe(CHECKS);
    expect(selectChecks(['shape', 'status_code']).map((c) => c.name)).toEqual(['status_code', 'shape']);
    expect(() => selectChecks(['shape', 'nope', 'statuscode'])).toThrow(UsageError);
    expect(() => selectChecks(['nope'])).toThrow(/unknown check name: nope \(known checks: status_code, content_type/);
    expect(() => selectChecks(['nope', 'statuscode'])).toThrow(/unknown check names: nope, statuscode/);
  });
});

describe('runChecks', () => {
  const ok = documentFor('GetMeals', 'get');

  test('a check that throws becomes its own finding and the others still run', () => {
    const boom: Check = { name: 'boom', description: 'throws', appliesTo: () => true, run: () => { throw new TypeError('x is undefined'); } };
    const badGuard: Check = { name: 'bad_guard', description: 'throws in appliesTo', appliesTo: () => { throw new Error('guard'); }, run: () => [] };
    const runs = runChecks(contextFor('GetMeals', 'get', ok), [boom, badGuard, ...CHECKS]);
    expect(runs[0]!.outcome).toEqual([{ check: 'boom', code: 'check_crashed', path: '/', message: 'check crashed: TypeError: x is undefined' }]);
    expect(runs[1]!.outcome).toEqual([{ check: 'bad_guard', code: 'check_crashed', path: '/', message: 'check crashed: Error: guard' }]);
    expect(runs.slice(2).map((r) => r.check.name)).toEqual(['status_code', 'content_type', 'xml_wellformed', 'soap_envelope', 'result_element', 'xsd_valid', 'shape']);
  });

  test('leaves out checks that do not apply', () => {
    expect(runChecks(contextFor('GetMeals', 'get', ok)).map((r) => r.check.name)).not.toContain('credentials_rejected');
    expect(runChecks(contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'get'))).map((r) => r.check.name)).toContain('binding_rules');
    // A rejection has no result to validate or walk: only the rejection check applies.
    expect(runChecks(contextFor('GetMeals', 'get', '', { caseKind: 'wrong-credentials', status: 500 })).map((r) => r.check.name))
      .toEqual(['credentials_rejected']);
    expect(runChecks(contextFor('GetMeals', 'get', '', { caseKind: 'bad-param', caseId: 'unparsable-x', status: 500 })).map((r) => r.check.name))
      .toEqual(['bad_request_rejected']);
  });
});

describe('every check on every operation and binding', () => {
  const variations: [string, DocOptions][] = [
    ['minimal', { full: false }],
    ['full, tns: prefix, env: prefix, pretty CRLF', { full: true, prefix: 'tns', envPrefix: 'env', indent: '  ', eol: '\r\n' }],
    ['full, SOAP-ENV:, xsi on elements as i:, single-quoted declaration, reversed attributes', { full: true, envPrefix: 'SOAP-ENV', xsiOnElements: true, xsiPrefix: 'i', decl: 'single', reverseAttrs: true }],
    ['minimal, no declaration, default-namespace envelope', { full: false, envPrefix: '', decl: 'none' }],
  ];
  const contentTypes: Record<BindingId, string> = {
    soap11: 'text/xml;charset=UTF-8', soap12: 'application/soap+xml; charset="utf-8"; action="urn:x"', get: 'text/xml; charset=utf-8', post: 'text/xml; charset=utf-8',
  };
  for (const [label, o] of variations) {
    test.each(OPERATIONS.flatMap((x) => ALL_BINDINGS.map((b) => [x.name, b] as const)))(`${label}: %s %s passes every check`, (name, b) => {
      const runs = runChecks(contextFor(name, b, documentFor(name, b, o), { validator, contentType: contentTypes[b] }));
      for (const r of runs) expect([r.check.name, r.outcome]).toEqual([r.check.name, []]);
    });
  }
});

describe('one defect, one finding: the other checks skip naming the reporter', () => {
  test('a 500 on a valid call', () => {
    expect(summary(runChecks(contextFor('GetMeals', 'soap11', 'boom', { status: 500, contentType: 'text/plain', validator }))))
      .toEqual({ status_code: 1, content_type: 'skip', xml_wellformed: 'skip', soap_envelope: 'skip', result_element: 'skip', xsd_valid: 'skip', shape: 'skip' });
  });

  test('a body that is not well-formed', () => {
    expect(summary(runChecks(contextFor('GetMeals', 'get', documentFor('GetMeals', 'get').slice(0, -30), { validator }))))
      .toEqual({ status_code: 0, content_type: 0, xml_wellformed: 1, soap_envelope: 'skip', result_element: 'skip', xsd_valid: 'skip', shape: 'skip' });
  });

  test('a SOAP envelope on HTTP GET (xsd_valid also sees the misplaced root)', () => {
    const s = summary(runChecks(contextFor('GetMeals', 'get', documentFor('GetMeals', 'soap11'), { validator })));
    expect(s).toMatchObject({ soap_envelope: 1, result_element: 'skip', shape: 'skip' });
  });

  test('a wrong field name: shape and xsd_valid, nothing else', () => {
    const r = sampleResult('UpdateSpecialRequest', 'get', { full: true });
    at(r, 'resultCode').name = 'ResultCode';
    const s = summary(runChecks(contextFor('UpdateSpecialRequest', 'get', documentFor('UpdateSpecialRequest', 'get', { result: r }), { validator })));
    expect(s).toEqual({ status_code: 0, content_type: 0, xml_wellformed: 0, soap_envelope: 0, result_element: 0, xsd_valid: 1, shape: 2 });
  });
});
