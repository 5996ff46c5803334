import { describe, expect, test } from 'vitest';
import { badRequestRejected } from './bad-request-rejected.js';
import {
  contextFor,
  documentFor,
  exchangeOf,
  findingsOf,
  node,
  NS,
  op,
  outcomeOf,
  wellFormedOnly,
} from '../../test/support/checks.js';
import type { BindingId } from '../contract/catalogue.js';
import { CheckContext, type CaseKind } from './context.js';

/** The unknown-operation case: a stand-in operation of the NonStaticXMLAPI service, answered with `body`. */
const unknownOp = (body: string) =>
  new CheckContext({
    op: { ...op('GetMeals'), name: 'NoSuchOperation', resultElement: 'noSuchOperationResult', params: [] },
    binding: 'get',
    caseId: 'unknown-operation-NonStaticXMLAPI',
    caseKind: 'unknown-operation',
    namespaces: NS,
    exchange: exchangeOf(body, 'get', { status: 200 }),
    validator: wellFormedOnly,
  });

const bad = (
  opName: string,
  binding: BindingId,
  body: string,
  o: { status?: number; contentType?: string; kind?: CaseKind; caseId?: string } = {},
) =>
  contextFor(opName, binding, body, {
    caseKind: o.kind ?? 'bad-param',
    caseId: o.caseId ?? 'unparsable-bookingId',
    status: o.status ?? 200,
    ...(o.contentType ? { contentType: o.contentType } : {}),
  });

describe('bad_request_rejected', () => {
  test('passes on every form of rejection and reports the form as a note', () => {
    const fault = documentFor('GetSpecialRequest', 'soap11').replace(
      /<soap:Body>[^]*<\/soap:Body>/,
      '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid '
        + 'bookingId</faultstring></soap:Fault></soap:Body>',
    );
    const forms: [ReturnType<typeof bad>, RegExp][] = [
      [
        bad('GetSpecialRequest', 'get', 'Cannot convert not-a-number to System.Int32.', {
          status: 500,
          contentType: 'text/plain; charset=utf-8',
        }),
        /^rejected with HTTP 500 \(text\/plain; charset=utf-8\)$/,
      ],
      [
        bad('GetSpecialRequest', 'post', '<html>Bad Request</html>', { status: 400, contentType: 'text/html' }),
        /HTTP 400 \(text\/html\)/,
      ],
      [bad('GetSpecialRequest', 'soap11', fault, { status: 500 }), /SOAP fault.*Invalid bookingId/],
      [bad('GetSpecialRequest', 'soap11', fault, { status: 200 }), /HTTP 200 and a SOAP fault/],
      [
        bad('GetMeals', 'get', 'no such operation', {
          status: 404,
          kind: 'unknown-operation',
          caseId: 'unknown-operation-NonStaticXMLAPI',
          contentType: 'text/plain',
        }),
        /HTTP 404/,
      ],
    ];
    for (const [ctx, note] of forms) {
      const o = outcomeOf(badRequestRejected, ctx);
      expect(o).toEqual({ note: expect.stringMatching(note) });
    }
  });

  test('a BaseResult result with an Error and no data is a rejection', () => {
    const r = node('searchTransfersResult', [], [node('Error', [], [node('Message', [], [], 'bad date')])]);
    expect(
      findingsOf(
        badRequestRejected,
        bad('SearchTransfers', 'get', documentFor('SearchTransfers', 'get', { result: r }), {
          kind: 'wrong-soapaction',
        }),
      ),
    ).toEqual([]);
  });

  test('fails when a bad request is answered with data, naming the bad request', () => {
    const f = findingsOf(
      badRequestRejected,
      bad('GetSpecialRequest', 'post', documentFor('GetSpecialRequest', 'post', { full: true })),
    );
    expect(f.map((x) => x.message)).toEqual([
      'a request whose bookingId does not parse as int answered with data: text holds content',
      'a request whose bookingId does not parse as int answered with a getSpecialRequestResult without '
        + 'an Error element (section 7.1: errors are reported as an Error element)',
    ]);
    // Without data (a null string left out) and without Error: still not a rejection.
    const empty = findingsOf(
      badRequestRejected,
      bad('GetSpecialRequest', 'post', documentFor('GetSpecialRequest', 'post')),
    );
    expect(empty.map((x) => x.path)).toEqual(['/getSpecialRequestResult/Error']);
    const missing = findingsOf(
      badRequestRejected,
      bad('AmendmentRequest', 'soap12', documentFor('AmendmentRequest', 'soap12', { full: true }), {
        kind: 'missing-param',
        caseId: 'missing-roomId',
      }),
    );
    expect(missing[0]!.message).toMatch(/^a request without its required parameter roomId answered with data/);
    const action = findingsOf(
      badRequestRejected,
      bad('GetMeals', 'soap11', documentFor('GetMeals', 'soap11', { full: true }), {
        kind: 'wrong-soapaction',
        caseId: 'wrong-soapaction',
      }),
    );
    expect(action[0]!.message).toMatch(
      /^a SOAP 1\.1 request whose SOAPAction names another operation answered with data/,
    );
  });

  test(
    "fails when the answer is another operation's result: dispatch by SOAPAction, an unknown operation "
      + 'served as a known one',
    () => {
      const action = findingsOf(
        badRequestRejected,
        bad('GetHotelNoteTypes', 'soap11', documentFor('GetLanguages', 'soap11', { full: true }), {
          kind: 'wrong-soapaction',
          caseId: 'wrong-soapaction',
        }),
      );
      expect(action.map((x) => x.path)).toEqual([
        '/Envelope/Body/GetLanguagesResponse/getLanguagesResult/languages',
        '/Envelope/Body/GetLanguagesResponse/getLanguagesResult/Error',
      ]);
      expect(action[0]!.message).toMatch(
        /SOAPAction names another operation answered with data \(the result of GetLanguages, another operation\): languages holds 2 language items/,
      );
      expect(
        findingsOf(badRequestRejected, unknownOp(documentFor('GetMeals', 'get', { full: true })))[0]!.message,
      ).toMatch(
        /^a request for an operation the service does not have \(NoSuchOperation\) answered with data \(the result of GetMeals, another operation\)/,
      );
      // A BaseResult result of another operation holding an Error is still a rejection.
      const err = node('getRoomTypesResult', [], [node('Error', [], [node('Message', [], [], 'unknown operation')])]);
      expect(outcomeOf(badRequestRejected, unknownOp(documentFor('GetRoomTypes', 'get', { result: err })))).toEqual({
        note: expect.any(String),
      });
    },
  );

  test("another operation's result element name in a foreign namespace is not taken for data", () => {
    const body = '<report xmlns="urn:elsewhere"><getLanguagesResult>request refused</getLanguagesResult></report>';
    const o = outcomeOf(
      badRequestRejected,
      bad('GetHotelNoteTypes', 'get', body, { kind: 'wrong-soapaction', caseId: 'wrong-soapaction' }),
    );
    expect(o).toEqual({ note: expect.stringMatching(/HTTP 200 and no data/) });
  });

  test('applies to bad-request kinds only', () => {
    expect(outcomeOf(badRequestRejected, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get')))).toBe(
      'not applicable',
    );
    expect(
      outcomeOf(badRequestRejected, contextFor('GetMeals', 'get', 'x', { caseKind: 'wrong-credentials', status: 500 })),
    ).toBe('not applicable');
  });
});
