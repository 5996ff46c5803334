import { describe, expect, test } from 'vitest';
import { statusCode } from './status-code.js';
import { contextFor, documentFor, findingsOf, outcomeOf } from '../../test/support/checks.js';
import type { Exchange } from '../core/types.js';

const fault11 =
  '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>'
  + '<faultcode>s:Server</faultcode><faultstring>Object reference not '
  + 'set</faultstring></s:Fault></s:Body></s:Envelope>';
const fault12 =
  '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault>'
  + '<env:Code><env:Value>env:Receiver</env:Value><env:Subcode><env:Value>x:Timeout</env:Value></env:Subcode></env:Code>'
  + '<env:Reason><env:Text xml:lang="de">Fehler</env:Text><env:Text xml:lang="en">Server was unable to '
  + 'process request</env:Text></env:Reason>'
  + '</env:Fault></env:Body></env:Envelope>';

describe('status_code', () => {
  test('passes on 200', () => {
    expect(findingsOf(statusCode, contextFor('GetMeals', 'soap11', documentFor('GetMeals', 'soap11')))).toEqual([]);
  });

  test('reports a 500 with the SOAP 1.1 faultcode and faultstring', () => {
    const [f, ...rest] = findingsOf(statusCode, contextFor('GetMeals', 'soap11', fault11, { status: 500 }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ check: 'status_code', path: 'http:status', expected: '200', actual: '500' });
    expect(f!.message).toContain('status 500 instead of 200');
    expect(f!.message).toContain('faultcode "s:Server"');
    expect(f!.message).toContain('faultstring "Object reference not set"');
  });

  test('reports a 500 with the SOAP 1.2 Code (and Subcode) and the English Reason', () => {
    const [f] = findingsOf(statusCode, contextFor('GetMeals', 'soap12', fault12, { status: 500 }));
    expect(f!.message).toContain('Code "env:Receiver / x:Timeout"');
    expect(f!.message).toContain('Reason "Server was unable to process request"');
  });

  test('reports a non-XML error body, quoted briefly', () => {
    const [f] = findingsOf(
      statusCode,
      contextFor('GetMeals', 'get', `Missing parameter: language.${' x'.repeat(300)}`, {
        status: 500,
        contentType: 'text/plain',
      }),
    );
    expect(f!.message).toContain('body "Missing parameter: language.');
    expect(f!.message.length).toBeLessThan(220);
  });

  test.each([201, 302, 404])('reports status %i', (status) => {
    expect(findingsOf(statusCode, contextFor('GetMeals', 'post', '', { status }))[0]!.actual).toBe(String(status));
  });

  test('reports a transport error as no response', () => {
    const exchange: Exchange = {
      request: { method: 'GET', url: 'http://x/', headers: {} },
      error: { code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' },
    };
    const [f] = findingsOf(statusCode, contextFor('GetMeals', 'get', '', { exchange }));
    expect(f!.message).toBe('no response: UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error');
  });

  test('does not apply to wrong-credentials cases', () => {
    expect(
      outcomeOf(statusCode, contextFor('GetMeals', 'get', '', { status: 500, caseKind: 'wrong-credentials' })),
    ).toBe('not applicable');
  });
});
