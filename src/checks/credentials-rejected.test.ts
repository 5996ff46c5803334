import { describe, expect, test } from 'vitest';
import { credentialsRejected } from './credentials-rejected.js';
import {
  contextFor,
  documentFor,
  findingsOf,
  node,
  NS,
  outcomeOf,
  sampleResult,
  skipOf,
} from '../../test/support/checks.js';
import type { BindingId } from '../contract/catalogue.js';
import type { Exchange } from '../core/types.js';

const wc = (opName: string, binding: BindingId, body: string, status = 200, contentType?: string) =>
  contextFor(opName, binding, body, { caseKind: 'wrong-credentials', status, ...(contentType ? { contentType } : {}) });
const errorResult = (name: string, ...more: ReturnType<typeof node>[]) =>
  node(
    name,
    [],
    [
      node(
        'Error',
        [],
        [node('ErrorType', [], [], 'Authentication'), node('Message', [], [], 'Invalid user name or password')],
      ),
      ...more,
    ],
  );

describe('credentials_rejected accepts', () => {
  test.each<[string, number, string, string | undefined]>([
    [
      'a SOAP 1.1 fault with 500',
      500,
      documentFor('GetMeals', 'soap11', { result: node('x') }).replace(
        /<soap:Body>.*<\/soap:Body>/,
        '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Login '
          + 'failed</faultstring></soap:Fault></soap:Body>',
      ),
      undefined,
    ],
    ['a plain-text 500', 500, 'Login failed', 'text/plain'],
    ['a 401 with an empty body', 401, '', 'text/html'],
    ['an HTML 403', 403, '<html><body>Forbidden</body></html>', 'text/html'],
    [
      'a 200 SOAP fault',
      200,
      '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault/></s:Body></s:Envelope>',
      undefined,
    ],
    ['a 200 with a non-XML body', 200, 'Access denied', 'text/plain'],
  ])('%s', (_, status, body, ct) => {
    expect(findingsOf(credentialsRejected, wc('GetMeals', 'soap11', body, status, ct))).toEqual([]);
  });

  test.each(['soap11', 'soap12', 'get', 'post'] as const)('a BaseResult result with Error and no data (%s)', (b) => {
    expect(
      findingsOf(
        credentialsRejected,
        wc('GetRoomTypes', b, documentFor('GetRoomTypes', b, { result: errorResult('getRoomTypesResult') })),
      ),
    ).toEqual([]);
    expect(
      findingsOf(
        credentialsRejected,
        wc(
          'SearchTransfers',
          b,
          documentFor('SearchTransfers', b, {
            result: errorResult('searchTransfersResult', node('airports')),
            prefix: 'tns',
          }),
        ),
      ),
    ).toEqual([]);
  });

  test('a nil searchTransfersResult', () => {
    const body = documentFor('SearchTransfers', 'get', {
      result: node('searchTransfersResult', [['xsi:nil', 'true']]),
    });
    expect(findingsOf(credentialsRejected, wc('SearchTransfers', 'get', body))).toEqual([]);
  });
});

describe('credentials_rejected reports', () => {
  test('a 200 with data for a BaseResult operation (and no Error)', () => {
    const f = findingsOf(
      credentialsRejected,
      wc('GetRoomTypes', 'soap11', documentFor('GetRoomTypes', 'soap11', { full: true })),
    );
    const base = '/Envelope/Body/GetRoomTypesResponse/getRoomTypesResult';
    expect(f).toEqual([
      expect.objectContaining({
        path: `${base}/roomTypes`,
        message: 'wrong credentials answered with data: roomTypes holds 2 roomType items',
      }),
      expect.objectContaining({ path: `${base}/Error`, message: expect.stringContaining('without an Error element') }),
    ]);
    const g = findingsOf(
      credentialsRejected,
      wc(
        'GetRoomTypes',
        'get',
        documentFor('GetRoomTypes', 'get', { result: sampleResult('GetRoomTypes', 'get', { full: false }) }),
      ),
    );
    expect(g).toEqual([
      expect.objectContaining({
        path: '/getRoomTypesResult/Error',
        message: expect.stringContaining('without an Error element'),
      }),
    ]);
  });

  test('an Error next to data', () => {
    const r = errorResult(
      'searchTransfersResult',
      sampleResult('SearchTransfers', 'post', { full: true }).children.find((c) => c.name === 'airports')!,
    );
    const f = findingsOf(
      credentialsRejected,
      wc('SearchTransfers', 'post', documentFor('SearchTransfers', 'post', { result: r })),
    );
    expect(f.map((x) => [x.path, x.message])).toEqual([
      ['/searchTransfersResult/airports', 'wrong credentials answered with data: airports holds 2 airport items'],
    ]);
  });

  test.each(['soap11', 'get'] as const)('any 200 result without an Error element, data or not (%s)', (b) => {
    const f = findingsOf(credentialsRejected, wc('GetMeals', b, documentFor('GetMeals', b, { full: true })));
    expect(f.map((x) => x.message)).toEqual([
      'wrong credentials answered with data: meals holds 2 meal items',
      'wrong credentials answered with a getMealsResult without an Error element (section 7.1: errors '
        + 'are reported as an Error element)',
    ]);
    const empty = findingsOf(
      credentialsRejected,
      wc('GetMeals', b, documentFor('GetMeals', b, { result: node('getMealsResult', [], [node('meals')]) })),
    );
    expect(empty.map((x) => x.message)).toEqual([expect.stringContaining('without an Error element')]);
  });

  test(
    'beside an Error, value types are not data (the serializer writes them always); records, list items '
      + 'and strings are',
    () => {
      const code = errorResult('result', node('Code', [], [], '-2'));
      expect(
        findingsOf(
          credentialsRejected,
          wc('CancelBooking', 'get', documentFor('CancelBooking', 'get', { result: code })),
        ),
      ).toEqual([]);
      const price = errorResult(
        'amendmentPriceRequestResult',
        node('Price', [['currency', 'EUR']], [], '12.50'),
        node('RoomId', [], [], '0'),
        node('BookingType', [], [], 'FullPeriod'),
      );
      expect(
        findingsOf(
          credentialsRejected,
          wc('AmendmentPriceRequest', 'get', documentFor('AmendmentPriceRequest', 'get', { result: price })),
        ).map((x) => x.path),
      ).toEqual(['/amendmentPriceRequestResult/Price']);
      const text = errorResult('getSpecialRequestResult', node('text', [], [], 'Late arrival'));
      expect(
        findingsOf(
          credentialsRejected,
          wc('GetSpecialRequest', 'soap12', documentFor('GetSpecialRequest', 'soap12', { result: text })),
        ),
      ).toHaveLength(1);
      const attributes = errorResult(
        'getMealsResult',
        node(
          'ErrorAttributes',
          [],
          [
            node('item', [
              ['key', 'user'],
              ['value', 'x'],
            ]),
          ],
        ),
      );
      expect(
        findingsOf(
          credentialsRejected,
          wc('GetMeals', 'post', documentFor('GetMeals', 'post', { result: attributes })),
        ),
      ).toEqual([]);
    },
  );

  test('a result element in the wrong namespace still counts as data', () => {
    const f = findingsOf(credentialsRejected, wc('GetMeals', 'get', documentFor('GetMeals', 'get', { ns: NS.book })));
    expect(f).toHaveLength(1);
  });
});

describe('credentials_rejected applicability', () => {
  test('only wrong-credentials cases; skips without a response', () => {
    expect(outcomeOf(credentialsRejected, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get')))).toBe(
      'not applicable',
    );
    const exchange: Exchange = {
      request: { method: 'GET', url: 'http://x/', headers: {} },
      error: { code: 'UND_ERR_SOCKET', message: 'other side closed' },
    };
    expect(
      skipOf(credentialsRejected, contextFor('GetMeals', 'get', '', { caseKind: 'wrong-credentials', exchange })),
    ).toContain('UND_ERR_SOCKET');
  });
});

describe('credentials_rejected: a server failure is not a rejection', () => {
  const soap11Fault = (code: string, reason: string) =>
    documentFor('GetMeals', 'soap11', { result: node('x') }).replace(
      /<soap:Body>.*<\/soap:Body>/,
      `<soap:Body><soap:Fault><faultcode>${code}</faultcode><faultstring>${reason}</faultstring></soap:Fault></soap:Body>`,
    );
  test.each<[string, number, string, string | undefined]>([
    [
      "the mock's crash as a SOAP fault",
      500,
      soap11Fault('soap:Server', 'internal mock error: /amendmentPriceRequestResult/RoomId: required element missing'),
      undefined,
    ],
    [
      "the mock's crash as text",
      500,
      'internal mock error: /amendmentPriceRequestResult/RoomId: required element missing',
      'text/plain',
    ],
    [
      'an ASMX NullReferenceException fault',
      500,
      soap11Fault(
        'soap:Server',
        'Server was unable to process request. ---> Object reference not set to an instance of an object.',
      ),
      undefined,
    ],
    [
      "a proxy's 502 page",
      502,
      '<html><head><title>502</title></head><body><h1>Internal Server Error</h1></body></html>',
      'text/html',
    ],
    ['a Python traceback', 500, 'Traceback (most recent call last):\n  File "app.py", line 3', 'text/plain'],
  ])('%s', (_, status, body, ct) => {
    const f = findingsOf(credentialsRejected, wc('GetMeals', 'soap11', body, status, ct));
    expect(f).toEqual([
      expect.objectContaining({
        code: 'rejected_by_server_error',
        path: 'http:status',
        message: expect.stringMatching(
          new RegExp(
            `^wrong credentials answered with HTTP ${status} and a server failure, not a rejection of the credentials`,
          ),
        ),
      }),
    ]);
  });

  test.each<[string, number, string, string | undefined]>([
    [
      'an ASMX fault wrapping an AuthenticationException',
      500,
      soap11Fault(
        'soap:Server',
        'Server was unable to process request. ---> '
          + 'System.Security.Authentication.AuthenticationException: Invalid username or password.',
      ),
      undefined,
    ],
    [
      'an exception page about the credentials',
      500,
      "<html><title>Server Error in '/' Application</title><body>Invalid user name or password</body></html>",
      'text/html',
    ],
    [
      "the plain mock's 500 rejection",
      500,
      'Authentication failed: the userName or password is not valid.',
      'text/plain',
    ],
    ['a 503 without words of a crash', 503, 'Service Unavailable', 'text/plain'],
  ])('still a rejection: %s', (_, status, body, ct) => {
    expect(findingsOf(credentialsRejected, wc('GetMeals', 'soap11', body, status, ct))).toEqual([]);
  });
});
