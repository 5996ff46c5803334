/**
 * A RunReport for the report tests: passed, failed, skipped and known rows over several operations
 * and bindings, a cross-binding equivalence row, an oversized response, and hostile text (markup,
 * a CDATA terminator, control characters, an ANSI escape) where a target could put it.
 */
import type { ResultRow, RunReport, Status } from '../../src/core/types.js';
import { groupOf } from '../../src/report/model.js';

export const HOSTILE = '<script>alert(1)</script> ]]> bell:\u0007 esc:\u001b[2J & "quotes" \'single\' | `tick`';
export const HOSTILE_RESPONSE =
  'HTTP/1.1 200 OK\ncontent-type: text/xml\n\n<?xml version="1.0"?><soap:Envelope><soap:Body>'
  + '<script>alert("xss")</script><img src=x onerror=alert(2)><![CDATA[ ]]> ]]></soap:Body></soap:Envelope>\u0000';
export const REPRODUCE_FAILED =
  "curl -sS -i -X POST 'http://127.0.0.1:8080/1/SOAP/NonStaticXMLAPI.asmx' -H 'content-type: "
  + "application/soap+xml; charset=utf-8' --data-binary @- <<EOF\n<Envelope>...</Envelope>\nEOF";
export const FAILED_MESSAGE = 'element id: expected xs:int, got "abc"';

type RowInit = Partial<ResultRow> & Pick<ResultRow, 'operation' | 'binding' | 'check'> & { status: Status };

function row(init: RowInit): ResultRow {
  return {
    group: groupOf(init.operation),
    case: 'default',
    message: '',
    path: '',
    reproduce: `curl -sS -i 'http://127.0.0.1:8080/${init.operation}?userName=u&password=$CONFORMANCE_PASSWORD'`,
    findings: [],
    durationMs: 3,
    ...init,
  };
}

const SOAP12_REQUEST =
  'POST /1/SOAP/NonStaticXMLAPI.asmx HTTP/1.1\ncontent-type: application/soap+xml; charset=utf-8\n\n'
  + '<soap12:Envelope><soap12:Body><GetMeals><userName>u</userName><password>***</password><language>en</language></GetMeals></soap12:Body></soap12:Envelope>';

/** Rows of the fixture report (a fresh copy per call). */
export function fixtureRows(): ResultRow[] {
  const big = `HTTP/1.1 500 Internal Server Error\n\n${'<x>0123456789</x>'.repeat(800)}`;
  return [
    // GetMeals: one of each status, plus hostile content in the failing soap12 cell.
    row({
      operation: 'GetMeals',
      binding: 'soap11',
      check: 'exchange',
      status: 'passed',
      request: 'POST /soap11',
      response: 'HTTP/1.1 200 OK',
    }),
    row({
      operation: 'GetMeals',
      binding: 'soap11',
      check: 'xsd_validity',
      status: 'passed',
      request: 'POST /soap11',
      response: 'HTTP/1.1 200 OK',
    }),
    row({
      operation: 'GetMeals',
      binding: 'soap12',
      check: 'exchange',
      status: 'passed',
      request: SOAP12_REQUEST,
      response: HOSTILE_RESPONSE,
    }),
    row({
      operation: 'GetMeals',
      binding: 'soap12',
      check: 'xsd_validity',
      status: 'failed',
      path: '/Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id',
      message: FAILED_MESSAGE,
      reproduce: REPRODUCE_FAILED,
      request: SOAP12_REQUEST,
      response: HOSTILE_RESPONSE,
      findings: [
        {
          check: 'xsd_validity',
          code: 'invalid_lexical_value',
          path: '/Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id',
          message: FAILED_MESSAGE,
          expected: 'xs:int',
          actual: 'abc',
        },
        {
          check: 'xsd_validity',
          code: 'unexpected_text',
          path: '/Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[3]/name',
          message: `unexpected content ${HOSTILE}`,
          expected: 'text',
          actual: HOSTILE,
        },
      ],
    }),
    row({
      operation: 'GetMeals',
      binding: 'soap12',
      check: 'content_type',
      status: 'passed',
      request: SOAP12_REQUEST,
      response: HOSTILE_RESPONSE,
    }),
    row({
      operation: 'GetMeals',
      binding: 'get',
      check: 'content_type',
      status: 'known',
      path: '/headers/content-type',
      message: 'media type text/xml; charset=iso-8859-1, expected utf-8 (accepted in expectations)',
      findings: [
        {
          check: 'content_type',
          code: 'charset_not_utf8',
          path: '/headers/content-type',
          message: 'charset is iso-8859-1',
          expected: 'utf-8',
          actual: 'iso-8859-1',
        },
      ],
      request: 'GET /1/SOAP/NonStaticXMLAPI.asmx/GetMeals?userName=u&password=***&language=en',
      response: 'HTTP/1.1 200 OK\n\n<getMealsResult/>',
    }),
    row({
      operation: 'GetMeals',
      binding: 'get',
      check: 'xsd_validity',
      status: 'passed',
      request: 'GET ...',
      response: 'HTTP/1.1 200 OK',
    }),
    row({
      operation: 'GetMeals',
      binding: 'post',
      check: 'exchange',
      status: 'skipped',
      message: 'binding disabled by --bindings for this case',
    }),
    row({
      operation: 'GetMeals',
      binding: 'soap11,get',
      check: 'binding_equivalence',
      status: 'failed',
      path: '/getMealsResult/meals/meal[1]/name',
      message: 'SOAP 1.1 and HTTP GET results differ',
      findings: [
        {
          check: 'binding_equivalence',
          code: 'value_differs',
          path: '/getMealsResult/meals/meal[1]/name',
          message: 'values differ',
          expected: 'Breakfast (soap11)',
          actual: 'Frühstück (get)',
        },
      ],
    }),
    // CancelBooking mutates: skipped on a real target without --allow-mutations.
    ...(['soap11', 'soap12', 'get', 'post'] as const).map((b) =>
      row({
        operation: 'CancelBooking',
        binding: b,
        check: 'not_run',
        status: 'skipped',
        message: 'mutating operation: pass --allow-mutations',
      }),
    ),
    // GetLanguages: all pass, two cases.
    ...(['soap11', 'soap12', 'get', 'post'] as const).flatMap((b) =>
      ['default', 'second'].map((c) =>
        row({
          operation: 'GetLanguages',
          binding: b,
          case: c,
          check: 'exchange',
          status: 'passed',
          request: `${b} request`,
          response: `${b} response`,
        }),
      ),
    ),
    // SearchTransfers: a failing status code with an oversized response, and a pass.
    row({
      operation: 'SearchTransfers',
      binding: 'get',
      case: 'nil-result',
      check: 'exchange',
      status: 'passed',
      request: 'GET transfers',
      response: 'HTTP/1.1 200 OK',
    }),
    row({
      operation: 'SearchTransfers',
      binding: 'post',
      case: 'nil-result',
      check: 'status_code',
      status: 'failed',
      path: '/status',
      message: 'HTTP status 500, expected 200',
      reproduce:
        "curl -sS -i -X POST 'http://127.0.0.1:8080/1/SOAP/NonStaticXMLAPI.asmx/SearchTransfers' "
        + "--data-urlencode 'password=${CONFORMANCE_PASSWORD}'",
      findings: [
        {
          check: 'status_code',
          code: 'status_not_200',
          path: '/status',
          message: 'HTTP status 500, expected 200',
          expected: '200',
          actual: '500',
        },
      ],
      request: 'POST transfers',
      response: big,
    }),
  ];
}

/** The fixture report with a summary that counts its rows. */
export function fixtureReport(results: ResultRow[] = fixtureRows()): RunReport {
  const summary = { passed: 0, failed: 0, skipped: 0, known: 0, total: results.length };
  for (const r of results) summary[r.status] += 1;
  return {
    tool: { name: 'accommodation-conformance', version: '0.1.0' },
    target: {
      bookUrl: 'http://127.0.0.1:8080',
      searchUrl: 'http://127.0.0.1:8080',
      transfersUrl: 'http://127.0.0.1:8081',
      namespaces: {
        book: 'http://mock.accommodation.test/book/1/',
        search: 'http://mock.accommodation.test/search/1/',
      },
      user: 'u',
      password: '***',
      embedded: false,
    },
    startedAt: '2026-11-21T06:00:00.000Z',
    durationMs: 12_345,
    bindings: ['soap11', 'soap12', 'get', 'post'],
    operations: ['CancelBooking', 'GetMeals', 'GetLanguages', 'SearchTransfers'],
    summary,
    results,
  };
}

/** A report where every row passed. */
export function passingReport(): RunReport {
  return fixtureReport(fixtureRows().filter((r) => r.status === 'passed'));
}

/**
 * A minimal report around `results`, its summary counting them (for tests of what reads reports: diff, expectations,
 * defects).
 */
export function minimalReport(results: ResultRow[], extra: Partial<RunReport> = {}): RunReport {
  const summary = { passed: 0, failed: 0, skipped: 0, known: 0, total: results.length };
  for (const r of results) summary[r.status]++;
  return {
    tool: { name: 'accommodation-conformance', version: '0.1.0' },
    target: {
      bookUrl: 'http://t',
      searchUrl: 'http://t',
      transfersUrl: 'http://t',
      namespaces: { book: 'urn:b', search: 'urn:s' },
      user: 'u',
      password: '***',
      embedded: false,
    },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    bindings: ['soap11', 'get'],
    operations: ['GetMeals', 'GetThemes'],
    summary,
    results,
    ...extra,
  };
}
