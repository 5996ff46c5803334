import { describe, expect, test } from 'vitest';
import { soapEnvelope } from './soap-envelope.js';
import { contextFor, documentFor, ENV, findingsOf, skipOf } from '../../test/support/checks.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../xml/tree.js';

const result =
  '<getThemesResult xmlns="http://mock.accommodation.test/search/1/"><themes><theme '
  + 'id="1"/></themes></getThemesResult>';
const envelope = (ns: string, body: string, p = 'soap') => `<${p}:Envelope xmlns:${p}="${ns}">${body}</${p}:Envelope>`;

describe('soap_envelope on SOAP bindings', () => {
  test.each(['soap', 's', 'env', 'SOAP-ENV', ''])('passes with envelope prefix "%s" on both versions', (envPrefix) => {
    for (const b of ['soap11', 'soap12'] as const) {
      expect(
        findingsOf(
          soapEnvelope,
          contextFor('GetThemes', b, documentFor('GetThemes', b, { envPrefix, indent: '  ', eol: '\r\n' })),
        ),
      ).toEqual([]);
    }
  });

  test('passes with a Header before the Body', () => {
    const body = envelope(
      SOAP11_ENV_NS,
      `<soap:Header><x:h xmlns:x="urn:h"/></soap:Header><soap:Body><GetThemesResponse `
        + `xmlns="http://mock.accommodation.test/search/1/">${result}</GetThemesResponse></soap:Body>`,
    );
    expect(findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', body))).toEqual([]);
  });

  test('reports a SOAP 1.1 envelope on the SOAP 1.2 binding and vice versa', () => {
    const [f] = findingsOf(soapEnvelope, contextFor('GetThemes', 'soap12', documentFor('GetThemes', 'soap11')));
    expect(f).toMatchObject({
      path: '/Envelope',
      message: 'SOAP 1.1 envelope on the SOAP 1.2 binding',
      expected: `{${SOAP12_ENV_NS}}Envelope`,
      actual: `{${SOAP11_ENV_NS}}Envelope`,
    });
    const [g] = findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', documentFor('GetThemes', 'soap12')));
    expect(g!.message).toBe('SOAP 1.2 envelope on the SOAP 1.1 binding');
  });

  test('reports a bare result document on a SOAP binding', () => {
    const [f] = findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', documentFor('GetThemes', 'get')));
    expect(f!.message).toContain('no SOAP envelope: the result element is the document root');
    expect(f!.path).toBe('/getThemesResult');
  });

  test('reports an Envelope in no or another namespace', () => {
    const [f] = findingsOf(
      soapEnvelope,
      contextFor('GetThemes', 'soap11', `<Envelope><Body>${result}</Body></Envelope>`),
    );
    expect(f!.message).toBe('Envelope in no namespace instead of the SOAP 1.1 envelope namespace');
  });

  test('reports a missing Body and a Body of another namespace', () => {
    expect(findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', envelope(ENV.soap11, '')))[0]).toMatchObject({
      path: '/Envelope/Body',
      message: 'missing Body in the Envelope',
    });
    const [f] = findingsOf(
      soapEnvelope,
      contextFor('GetThemes', 'soap12', envelope(ENV.soap12, `<Body>${result}</Body>`)),
    );
    expect(f!.message).toBe('Body in no namespace instead of the SOAP 1.2 envelope namespace');
  });

  test('reports two Bodies', () => {
    const [f] = findingsOf(
      soapEnvelope,
      contextFor('GetThemes', 'soap11', envelope(ENV.soap11, '<soap:Body/><soap:Body/>')),
    );
    expect(f).toMatchObject({
      path: '/Envelope/Body[2]',
      message: '2 Body elements in the Envelope, expected exactly one',
    });
  });

  test('reports a Header after the Body and unexpected envelope children', () => {
    const f = findingsOf(
      soapEnvelope,
      contextFor('GetThemes', 'soap12', envelope(ENV.soap12, '<soap:Body/><soap:Header/><x:y xmlns:x="urn:y"/>')),
    );
    expect(f.map((x) => x.path)).toEqual(['/Envelope/Header', '/Envelope/y']);
  });

  test('lets a qualified element follow the Body in SOAP 1.1 only', () => {
    const body =
      `<soap:Body><GetThemesResponse `
      + `xmlns="http://mock.accommodation.test/search/1/">${result}</GetThemesResponse></soap:Body><x:trailer `
      + `xmlns:x="urn:t"/>`;
    expect(findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', envelope(ENV.soap11, body)))).toEqual([]);
  });

  test('reports a Fault in the Body of a 200 answer to a valid call, with its code and reason', () => {
    const body = envelope(
      ENV.soap11,
      '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Bad '
        + 'language</faultstring></soap:Fault></soap:Body>',
    );
    const [f, ...rest] = findingsOf(soapEnvelope, contextFor('GetThemes', 'soap11', body));
    expect(rest).toEqual([]);
    expect(f!.path).toBe('/Envelope/Body/Fault');
    expect(f!.message).toBe(
      'SOAP 1.1 fault (faultcode "soap:Client", faultstring "Bad language") in the Body of a valid '
        + 'call: expected GetThemesResponse',
    );
  });

  test('skips an answer that is not well-formed or not 200', () => {
    expect(skipOf(soapEnvelope, contextFor('GetThemes', 'soap11', '<soap:Envelope'))).toContain('xml_wellformed');
    expect(
      skipOf(soapEnvelope, contextFor('GetThemes', 'soap11', documentFor('GetThemes', 'soap11'), { status: 500 })),
    ).toContain('status_code');
  });
});

describe('soap_envelope on HTTP GET and POST', () => {
  test.each(['get', 'post'] as const)('passes on a bare result root (%s)', (b) => {
    expect(findingsOf(soapEnvelope, contextFor('GetThemes', b, documentFor('GetThemes', b)))).toEqual([]);
  });

  test.each(['soap11', 'soap12'] as const)('reports a %s envelope on HTTP GET', (version) => {
    const [f] = findingsOf(soapEnvelope, contextFor('GetThemes', 'get', documentFor('GetThemes', version)));
    expect(f!.path).toBe('/Envelope');
    expect(f!.message).toBe(
      `SOAP ${version === 'soap11' ? '1.1' : '1.2'} Envelope on the HTTP GET binding: expected the `
        + `result element {http://mock.accommodation.test/search/1/}getThemesResult as the document root`,
    );
  });
});
