import { describe, expect, test } from 'vitest';
import { resultElement } from './result-element.js';
import { contextFor, documentFor, findingsOf, node, NS, sampleResult, skipOf } from '../../test/support/checks.js';
import { ALL_BINDINGS } from '../../test/support/checks.js';
import { OPERATIONS } from '../contract/catalogue.js';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const soap = (body: string) => `<s:Envelope xmlns:s="${SOAP11}"><s:Body>${body}</s:Body></s:Envelope>`;
const BOOK = NS.book;
const cancelResult = (ns = BOOK, name = 'result') => `<${name} xmlns="${ns}"><Code>0</Code></${name}>`;

describe('result_element', () => {
  test.each(OPERATIONS.flatMap((o) => ALL_BINDINGS.map((b) => [o.name, b] as const)))('passes on %s %s', (name, b) => {
    expect(findingsOf(resultElement, contextFor(name, b, documentFor(name, b)))).toEqual([]);
  });

  test('passes with a prefixed group namespace (tns:) and the wrapper in default namespace', () => {
    for (const b of ALL_BINDINGS)
      expect(
        findingsOf(resultElement, contextFor('CancelBooking', b, documentFor('CancelBooking', b, { prefix: 'tns' }))),
      ).toEqual([]);
    const mixed = soap(
      `<CancelBookingResponse xmlns="${BOOK}"><b:result `
        + `xmlns:b="${BOOK}"><b:Code>0</b:Code></b:result></CancelBookingResponse>`,
    );
    expect(findingsOf(resultElement, contextFor('CancelBooking', 'soap11', mixed))).toEqual([]);
  });

  test('passes on a nil searchTransfersResult (nillable)', () => {
    for (const b of ALL_BINDINGS) {
      const body = documentFor('SearchTransfers', b, { result: node('searchTransfersResult', [['xsi:nil', 'true']]) });
      expect(findingsOf(resultElement, contextFor('SearchTransfers', b, body))).toEqual([]);
    }
  });

  test('reports a nil result where the contract does not allow it', () => {
    const body = documentFor('GetMeals', 'soap12', { result: node('getMealsResult', [['xsi:nil', 'true']]) });
    const [f] = findingsOf(resultElement, contextFor('GetMeals', 'soap12', body));
    expect(f).toMatchObject({ path: '/Envelope/Body/GetMealsResponse/getMealsResult', actual: 'xsi:nil="true"' });
  });

  test('reports a missing wrapper (the result directly in the Body)', () => {
    const [f] = findingsOf(resultElement, contextFor('CancelBooking', 'soap11', soap(cancelResult())));
    expect(f).toMatchObject({
      path: '/Envelope/Body/result',
      expected: `{${BOOK}}CancelBookingResponse`,
      message: `missing wrapper CancelBookingResponse: the Body holds the result element {${BOOK}}result directly`,
    });
  });

  test('reports an empty Body', () => {
    expect(findingsOf(resultElement, contextFor('CancelBooking', 'soap11', soap('')))[0]!.message).toBe(
      `empty Body: expected the wrapper {${BOOK}}CancelBookingResponse`,
    );
  });

  test('reports a wrapper of another version of the namespace', () => {
    const ns2 = BOOK.replace('/1/', '/2/');
    const [f] = findingsOf(
      resultElement,
      contextFor(
        'CancelBooking',
        'soap11',
        soap(`<CancelBookingResponse xmlns="${ns2}">${cancelResult(ns2)}</CancelBookingResponse>`),
      ),
    );
    expect(f!.message).toBe(
      `wrapper CancelBookingResponse in another version: ends in 2/ instead of 1/ (${ns2}): expected namespace ${BOOK}`,
    );
    expect(f!.actual).toBe(`{${ns2}}CancelBookingResponse`);
  });

  test("reports a result in the other group's namespace", () => {
    const body = soap(`<CancelBookingResponse xmlns="${BOOK}">${cancelResult(NS.search)}</CancelBookingResponse>`);
    const [f] = findingsOf(resultElement, contextFor('CancelBooking', 'soap11', body));
    expect(f!.message).toBe(
      `result element result in the search group's namespace (${NS.search}): expected namespace ${BOOK}`,
    );
  });

  test('reports a result element of the wrong case, hinting it', () => {
    const body = soap(`<CancelBookingResponse xmlns="${BOOK}">${cancelResult(BOOK, 'Result')}</CancelBookingResponse>`);
    const [f] = findingsOf(resultElement, contextFor('CancelBooking', 'soap11', body));
    expect(f!.message).toContain('result element named Result instead of result (names are case-sensitive');
    expect(f!.path).toBe('/Envelope/Body/CancelBookingResponse/Result');
  });

  test('reports a wrongly named wrapper', () => {
    const body = soap(`<CancelBookingResult xmlns="${BOOK}">${cancelResult()}</CancelBookingResult>`);
    const [f] = findingsOf(resultElement, contextFor('CancelBooking', 'soap11', body));
    expect(f!.message).toBe(`{${BOOK}}CancelBookingResult instead of the wrapper {${BOOK}}CancelBookingResponse`);
  });

  test('reports a missing result element, a duplicated one and strangers in the wrapper', () => {
    expect(
      findingsOf(
        resultElement,
        contextFor('CancelBooking', 'soap11', soap(`<CancelBookingResponse xmlns="${BOOK}"/>`)),
      )[0]!.message,
    ).toBe(`missing result element {${BOOK}}result in CancelBookingResponse`);
    const two = soap(
      `<CancelBookingResponse xmlns="${BOOK}">${cancelResult()}${cancelResult()}<extra/></CancelBookingResponse>`,
    );
    expect(findingsOf(resultElement, contextFor('CancelBooking', 'soap11', two)).map((f) => f.path)).toEqual([
      '/Envelope/Body/CancelBookingResponse/result[2]',
      '/Envelope/Body/CancelBookingResponse/extra',
    ]);
  });

  test('reports a second element in the Body', () => {
    const body = soap(
      `<CancelBookingResponse xmlns="${BOOK}">${cancelResult()}</CancelBookingResponse><x xmlns="urn:x"/>`,
    );
    expect(findingsOf(resultElement, contextFor('CancelBooking', 'soap11', body)).map((f) => f.path)).toEqual([
      '/Envelope/Body/x',
    ]);
  });

  test('reports a wrong root on GET/POST: wrong name, wrong namespace, no namespace', () => {
    expect(
      findingsOf(resultElement, contextFor('CancelBooking', 'get', cancelResult(BOOK, 'cancelBookingResult')))[0]!
        .message,
    ).toBe(`root element: {${BOOK}}cancelBookingResult instead of the result element {${BOOK}}result`);
    expect(
      findingsOf(resultElement, contextFor('CancelBooking', 'post', '<result><Code>0</Code></result>'))[0]!.message,
    ).toBe(`root element: result element result in no namespace (none): expected namespace ${BOOK}`);
    expect(
      findingsOf(resultElement, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get', { ns: NS.book })))[0]!
        .message,
    ).toContain("the booking group's namespace");
  });

  test('skips a SOAP envelope on GET and a Fault on SOAP (soap_envelope reports them)', () => {
    expect(skipOf(resultElement, contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'soap11')))).toContain(
      'soap_envelope',
    );
    const fault = soap('<s:Fault><faultcode>s:Server</faultcode><faultstring>x</faultstring></s:Fault>');
    expect(skipOf(resultElement, contextFor('CancelBooking', 'soap11', fault))).toContain('soap_envelope');
  });

  test('does not care about the envelope version (soap_envelope does)', () => {
    expect(findingsOf(resultElement, contextFor('GetMeals', 'soap12', documentFor('GetMeals', 'soap11')))).toEqual([]);
  });

  test('sample results exist for every operation', () => {
    for (const o of OPERATIONS) expect(sampleResult(o).name).toBe(o.resultElement);
  });
});
