import { describe, expect, test } from 'vitest';
import { badRequestRejected } from './credentials-rejected.js';
import { contextFor, documentFor, findingsOf, node, outcomeOf } from './test-helpers.js';
import type { BindingId } from '../contract/catalogue.js';
import type { CaseKind } from './context.js';

const bad = (opName: string, binding: BindingId, body: string, o: { status?: number; contentType?: string; kind?: CaseKind; caseId?: string } = {}) =>
  contextFor(opName, binding, body, { caseKind: o.kind ?? 'bad-param', caseId: o.caseId ?? 'unparsable-bookingId', status: o.status ?? 200, ...(o.contentType ? { contentType: o.contentType } : {}) });

describe('bad_request_rejected', () => {
  test('passes on every form of rejection and reports the form as a note', () => {
    const fault = documentFor('GetSpecialRequest', 'soap11').replace(/<soap:Body>[^]*<\/soap:Body>/, '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid bookingId</faultstring></soap:Fault></soap:Body>');
    const forms: [ReturnType<typeof bad>, RegExp][] = [
      [bad('GetSpecialRequest', 'get', 'Cannot convert not-a-number to System.Int32.', { status: 500, contentType: 'text/plain; charset=utf-8' }), /^rejected with HTTP 500 \(text\/plain; charset=utf-8\)$/],
      [bad('GetSpecialRequest', 'post', '<html>Bad Request</html>', { status: 400, contentType: 'text/html' }), /HTTP 400 \(text\/html\)/],
      [bad('GetSpecialRequest', 'soap11', fault, { status: 500 }), /SOAP fault.*Invalid bookingId/],
      [bad('GetSpecialRequest', 'soap11', fault, { status: 200 }), /HTTP 200 and a SOAP fault/],
      [bad('GetMeals', 'get', 'no such operation', { status: 404, kind: 'unknown-operation', caseId: 'unknown-operation-NonStaticXMLAPI', contentType: 'text/plain' }), /HTTP 404/],
    ];
    for (const [ctx, note] of forms) {
      const o = outcomeOf(badRequestRejected, ctx);
      expect(o).toEqual({ note: expect.stringMatching(note) });
    }
  });

  test('a BaseResult result with an Error and no data is a rejection', () => {
    const r = node('searchTransfersResult', [], [node('Error', [], [node('Message', [], [], 'bad date')])]);
    expect(findingsOf(badRequestRejected, bad('SearchTransfers', 'get', documentFor('SearchTransfers', 'get', { result: r }), { kind: 'wrong-soapaction' }))).toEqual([]);
  });

  test('fails when a bad request is answered with data, naming the bad request', () => {
    const f = findingsOf(badRequestRejected, bad('GetSpecialRequest', 'post', documentFor('GetSpecialRequest', 'post')));
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/^a request whose bookingId does not parse as int answered with data: status 200/);
    const missing = findingsOf(badRequestRejected, bad('AmendmentRequest', 'soap12', documentFor('AmendmentRequest', 'soap12'), { kind: 'missing-param', caseId: 'missing-roomId' }));
    expect(missing[0]!.message).toMatch(/^a request without its required parameter roomId answered with data/);
    const action = findingsOf(badRequestRejected, bad('GetMeals', 'soap11', documentFor('GetMeals', 'soap11'), { kind: 'wrong-soapaction', caseId: 'wrong-soapaction' }));
    expect(action[0]!.message).toMatch(/^a SOAP 1\.1 request whose SOAPAction names another operation answered with data/);
  });

  test('applies to bad-request kinds only', () => {
    expect(outcomeOf(badRequestRejected, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get')))).toBe('not applicable');
    expect(outcomeOf(badRequestRejected, contextFor('GetMeals', 'get', 'x', { caseKind: 'wrong-credentials', status: 500 }))).toBe('not applicable');
  });
});
