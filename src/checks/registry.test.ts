import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  appliesHere,
  CHECK_GROUPS,
  CHECK_NAMES,
  CHECKS,
  checksPlacedOn,
  DOCUMENT_CHECKS,
  HOSTILE_GROUP,
  runChecks,
  selectChecks,
  severityOf,
  type CheckRun,
} from './registry.js';
import {
  ALL_BINDINGS,
  at,
  contextFor,
  documentFor,
  NS,
  sampleResult,
  type DocOptions,
} from '../../test/support/checks.js';
import { OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import type { DocumentValidator } from './context.js';
import { BAD_REQUEST_KINDS, type CaseKind } from './context.js';
import { LEAST_SEVERE, type Check } from './types.js';
import { checksOf } from '../engine/session.js';

let validator: DocumentValidator;
beforeAll(() => {
  validator = createDocumentValidator(NS);
});

/** check name → findings count, or 'skip'. */
const summary = (runs: CheckRun[]) =>
  Object.fromEntries(runs.map((r) => [r.check.name, Array.isArray(r.outcome) ? r.outcome.length : 'skip']));

describe('registry', () => {
  test('names are unique, snake_case, in run order', () => {
    expect(CHECK_NAMES).toEqual([
      'status_code',
      'content_type',
      'xml_wellformed',
      'soap_envelope',
      'result_element',
      'xsd_valid',
      'shape',
      'binding_rules',
      'credentials_rejected',
      'bad_request_rejected',
      'dtd_refused',
      'login_rejected',
      'secret_echoed',
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

/** The checks a module exports (an object with a name, a description and a run). */
function checksExported(module: Record<string, unknown>): Check[] {
  return Object.values(module).filter(
    (v): v is Check =>
      typeof v === 'object'
      && v !== null
      && typeof (v as Check).name === 'string'
      && typeof (v as Check).description === 'string'
      && typeof (v as Check).run === 'function',
  );
}

/** The checks declared by these modules that the registry does not list, by file. */
function unregistered(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  registered: readonly Check[],
): string[] {
  return Object.entries(modules).flatMap(([file, m]) =>
    checksExported(m)
      .filter((c) => !registered.includes(c))
      .map((c) => `${c.name} (${file})`),
  );
}

describe('the registry is the one place that says where a check applies', () => {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));

  test('every check declared in a file of src/checks/ is in the registry, once, and is placed', async () => {
    const modules = Object.fromEntries(
      await Promise.all(
        files.map(async (f) => [f, await import(/* @vite-ignore */ `./${f.replace(/\.ts$/, '.js')}`)] as const),
      ),
    );
    expect(unregistered(modules, CHECKS)).toEqual([]);
    // Every registered check comes from one file of its own.
    const declaredIn = (c: Check) =>
      Object.entries(modules)
        .filter(([, m]) => Object.values(m).includes(c))
        .map(([f]) => f);
    for (const c of CHECKS) expect(declaredIn(c), c.name).toEqual([`${c.name.replace(/_/g, '-')}.ts`]);
    expect(new Set(CHECK_NAMES).size).toBe(CHECK_NAMES.length);
    for (const c of CHECKS) {
      expect(c.places.length, c.name).toBeGreaterThan(0);
      expect(c.severity, c.name).toBeGreaterThan(0);
    }
    // A planted check, declared but not listed, is named with its file.
    const planted: Check = {
      name: 'planted_check',
      description: 'a check nobody listed',
      places: ['valid'],
      severity: 10,
      run: () => [],
    };
    expect(unregistered({ ...modules, 'planted-check.ts': { planted } }, CHECKS)).toEqual([
      'planted_check (planted-check.ts)',
    ]);
  });

  test(
    'the checks placed on each case kind are those --list names (binding_rules only where a binding ' + 'differs)',
    () => {
      const names = (kind: CaseKind, op = 'GetMeals') => checksPlacedOn(kind, op).map((c) => c.name);
      const document = ['content_type', 'xml_wellformed', 'soap_envelope', 'result_element', 'xsd_valid', 'shape'];
      expect(names('valid')).toEqual(['status_code', ...document, 'secret_echoed']);
      expect(names('valid', 'CancelBooking')).toEqual(['status_code', ...document, 'binding_rules', 'secret_echoed']);
      expect(names('generated', 'CancelBooking')).toEqual([...document, 'binding_rules', 'secret_echoed']);
      expect(names('wrong-credentials')).toEqual(['credentials_rejected', 'secret_echoed']);
      for (const kind of BAD_REQUEST_KINDS) expect(names(kind)).toEqual(['bad_request_rejected', 'secret_echoed']);
      expect(names('login-variant')).toEqual(['login_rejected', 'secret_echoed']);
      expect(names('doctype')).toEqual(['dtd_refused', 'secret_echoed']);
    },
  );

  test('a captured document (conformance validate) gets the document checks: not status, media type or secrets', () => {
    expect(DOCUMENT_CHECKS.map((c) => c.name)).toEqual([
      'xml_wellformed',
      'soap_envelope',
      'result_element',
      'xsd_valid',
      'shape',
      'binding_rules',
    ]);
  });

  test('the run asks a check only within its places and operations', () => {
    const applying = (ctx: ReturnType<typeof contextFor>) =>
      CHECKS.filter((c) => appliesHere(c, ctx)).map((c) => c.name);
    const meals = documentFor('GetMeals', 'get');
    const document = ['content_type', 'xml_wellformed', 'soap_envelope', 'result_element', 'xsd_valid', 'shape'];
    expect(applying(contextFor('GetMeals', 'get', meals))).toEqual(['status_code', ...document]);
    expect(applying(contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'get')))).toEqual([
      'status_code',
      ...document,
      'binding_rules',
    ]);
    // A rejection answered with data: its own check, and the result's schema and shape (answered-with-data).
    for (const caseKind of ['wrong-credentials', 'bad-param', 'login-variant', 'doctype'] as const) {
      const own = {
        'wrong-credentials': 'credentials_rejected',
        'bad-param': 'bad_request_rejected',
        'login-variant': 'login_rejected',
        doctype: 'dtd_refused',
      }[caseKind];
      expect(applying(contextFor('GetMeals', 'get', meals, { caseKind })), caseKind).toEqual(
        ['xsd_valid', 'shape', own].sort((a, b) => CHECK_NAMES.indexOf(a) - CHECK_NAMES.indexOf(b)),
      );
      expect(applying(contextFor('GetMeals', 'get', '', { caseKind, status: 500 })), caseKind).toEqual([own]);
    }
    // A generated case answered with an error: judged by the comparison of bindings alone.
    expect(applying(contextFor('GetMeals', 'get', '', { caseKind: 'generated', status: 500 }))).toEqual([]);
  });

  test(
    'GitHub annotations keep their order of severity: worst first, then the checks and rows ranked last ' + 'alike',
    () => {
      const ranked = [
        'all',
        'http_exchange',
        'status_code',
        'xml_wellformed',
        'soap_envelope',
        'result_element',
        'sequence',
        'credentials_rejected',
        'dtd_refused',
        'xsd_valid',
        'shape',
        'bad_request_rejected',
        'binding_equivalence',
        'binding_rules',
        'content_type',
      ];
      const severities = ranked.map(severityOf);
      expect(severities).toEqual([...severities].sort((a, b) => a - b));
      expect(new Set(severities).size).toBe(ranked.length);
      for (const last of [
        'login_rejected',
        'secret_echoed',
        'wsdl_drift',
        'expectations',
        'latency',
        'no_such_check',
      ]) {
        expect([last, severityOf(last)]).toEqual([last, LEAST_SEVERE]);
      }
      expect(severityOf('content_type')).toBeLessThan(LEAST_SEVERE);
    },
  );

  test('--checks and --skip-checks select by name and by group, as before', () => {
    const names = (checks: readonly Check[]) => checks.map((c) => c.name);
    expect(CHECK_GROUPS[HOSTILE_GROUP]).toEqual(['login_rejected', 'secret_echoed', 'dtd_refused']);
    for (const n of Object.values(CHECK_GROUPS).flat()) expect(CHECK_NAMES).toContain(n);
    expect(names(selectChecks([HOSTILE_GROUP]))).toEqual(['dtd_refused', 'login_rejected', 'secret_echoed']);
    expect(names(selectChecks([HOSTILE_GROUP, 'status_code']))).toEqual([
      'status_code',
      'dtd_refused',
      'login_rejected',
      'secret_echoed',
    ]);
    expect(names(checksOf({ checks: [], skipChecks: [HOSTILE_GROUP] }))).toEqual(
      CHECK_NAMES.filter((n) => !CHECK_GROUPS[HOSTILE_GROUP]!.includes(n)),
    );
    expect(
      names(checksOf({ checks: ['shape', 'status_code', 'secret_echoed'], skipChecks: ['secret_echoed'] })),
    ).toEqual(['status_code', 'shape']);
    expect(() => checksOf({ checks: [], skipChecks: ['hostile'] })).toThrow(
      /unknown check name\(s\) in --skip-checks: hostile \(groups: hostile_requests\)/,
    );
  });
});

describe('runChecks', () => {
  const ok = documentFor('GetMeals', 'get');

  test('a check that throws becomes its own finding and the others still run', () => {
    const boom: Check = {
      name: 'boom',
      description: 'throws',
      places: ['valid'],
      severity: 10,
      appliesTo: () => true,
      run: () => {
        throw new TypeError('x is undefined');
      },
    };
    const badGuard: Check = {
      name: 'bad_guard',
      description: 'throws in appliesTo',
      places: ['valid'],
      severity: 10,
      appliesTo: () => {
        throw new Error('guard');
      },
      run: () => [],
    };
    const runs = runChecks(contextFor('GetMeals', 'get', ok), [boom, badGuard, ...CHECKS]);
    expect(runs[0]!.outcome).toEqual([
      { check: 'boom', code: 'check_crashed', path: '/', message: 'check crashed: TypeError: x is undefined' },
    ]);
    expect(runs[1]!.outcome).toEqual([
      { check: 'bad_guard', code: 'check_crashed', path: '/', message: 'check crashed: Error: guard' },
    ]);
    expect(runs.slice(2).map((r) => r.check.name)).toEqual([
      'status_code',
      'content_type',
      'xml_wellformed',
      'soap_envelope',
      'result_element',
      'xsd_valid',
      'shape',
    ]);
  });

  test('leaves out checks that do not apply', () => {
    expect(runChecks(contextFor('GetMeals', 'get', ok)).map((r) => r.check.name)).not.toContain('credentials_rejected');
    expect(
      runChecks(contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'get'))).map((r) => r.check.name),
    ).toContain('binding_rules');
    // A rejection has no result to validate or walk: only the rejection check applies.
    expect(
      runChecks(contextFor('GetMeals', 'get', '', { caseKind: 'wrong-credentials', status: 500 })).map(
        (r) => r.check.name,
      ),
    ).toEqual(['credentials_rejected']);
    expect(
      runChecks(contextFor('GetMeals', 'get', '', { caseKind: 'bad-param', caseId: 'unparsable-x', status: 500 })).map(
        (r) => r.check.name,
      ),
    ).toEqual(['bad_request_rejected']);
  });
});

describe('every check on every operation and binding', () => {
  const variations: [string, DocOptions][] = [
    ['minimal', { full: false }],
    [
      'full, tns: prefix, env: prefix, pretty CRLF',
      { full: true, prefix: 'tns', envPrefix: 'env', indent: '  ', eol: '\r\n' },
    ],
    [
      'full, SOAP-ENV:, xsi on elements as i:, single-quoted declaration, reversed attributes',
      { full: true, envPrefix: 'SOAP-ENV', xsiOnElements: true, xsiPrefix: 'i', decl: 'single', reverseAttrs: true },
    ],
    ['minimal, no declaration, default-namespace envelope', { full: false, envPrefix: '', decl: 'none' }],
  ];
  const contentTypes: Record<BindingId, string> = {
    soap11: 'text/xml;charset=UTF-8',
    soap12: 'application/soap+xml; charset="utf-8"; action="urn:x"',
    get: 'text/xml; charset=utf-8',
    post: 'text/xml; charset=utf-8',
  };
  for (const [label, o] of variations) {
    test.each(OPERATIONS.flatMap((x) => ALL_BINDINGS.map((b) => [x.name, b] as const)))(
      `${label}: %s %s passes every check`,
      (name, b) => {
        const runs = runChecks(
          contextFor(name, b, documentFor(name, b, o), { validator, contentType: contentTypes[b] }),
        );
        for (const r of runs) expect([r.check.name, r.outcome]).toEqual([r.check.name, []]);
      },
    );
  }
});

describe('one defect, one finding: the other checks skip naming the reporter', () => {
  test('a 500 on a valid call', () => {
    expect(
      summary(
        runChecks(contextFor('GetMeals', 'soap11', 'boom', { status: 500, contentType: 'text/plain', validator })),
      ),
    ).toEqual({
      status_code: 1,
      content_type: 'skip',
      xml_wellformed: 'skip',
      soap_envelope: 'skip',
      result_element: 'skip',
      xsd_valid: 'skip',
      shape: 'skip',
    });
  });

  test('a body that is not well-formed', () => {
    expect(
      summary(runChecks(contextFor('GetMeals', 'get', documentFor('GetMeals', 'get').slice(0, -30), { validator }))),
    ).toEqual({
      status_code: 0,
      content_type: 0,
      xml_wellformed: 1,
      soap_envelope: 'skip',
      result_element: 'skip',
      xsd_valid: 'skip',
      shape: 'skip',
    });
  });

  test('a SOAP envelope on HTTP GET (xsd_valid also sees the misplaced root)', () => {
    const s = summary(runChecks(contextFor('GetMeals', 'get', documentFor('GetMeals', 'soap11'), { validator })));
    expect(s).toMatchObject({ soap_envelope: 1, result_element: 'skip', shape: 'skip' });
  });

  test('a wrong field name: shape and xsd_valid, nothing else', () => {
    const r = sampleResult('UpdateSpecialRequest', 'get', { full: true });
    at(r, 'resultCode').name = 'ResultCode';
    const s = summary(
      runChecks(
        contextFor('UpdateSpecialRequest', 'get', documentFor('UpdateSpecialRequest', 'get', { result: r }), {
          validator,
        }),
      ),
    );
    expect(s).toEqual({
      status_code: 0,
      content_type: 0,
      xml_wellformed: 0,
      soap_envelope: 0,
      result_element: 0,
      xsd_valid: 1,
      shape: 2,
    });
  });
});
