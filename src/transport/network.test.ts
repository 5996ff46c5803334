/**
 * The transport on a company's network (./network.ts): requests through a loopback proxy (forwarded
 * for http://, CONNECT for https://), the TLS options from files, extra headers beneath the
 * binding's own, and the failures said in plain words. Whole runs: suites/e2e/network.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Transport } from './client.js';
import { proxyFailure, tlsFailure } from './network.js';
import type { RunningMock } from '../mock/server.js';
import {
  startNetworkRig,
  TLS_FILES,
  type NetworkRig,
  type TestProxy,
  type TlsFront,
} from '../../test/support/network.js';
import type { NetworkOptions } from '../core/types.js';

let mock: RunningMock;
let proxy: TestProxy;
let authed: TestProxy;
let front: TlsFront;
let rig: NetworkRig | undefined;
beforeAll(async () => {
  rig = await startNetworkRig('alice:s3cret');
  ({ mock, proxy, authed, front } = rig);
});
afterAll(() => rig?.close());

/** One GET for the mock's WSDL through a transport with `network`. */
async function wsdl(base: string, network: NetworkOptions) {
  const t = new Transport({ network, giveUpAfter: 0, timeoutMs: 5000 });
  try {
    return await t.send({ method: 'GET', url: `${base}/1/SOAP/Booking.asmx?WSDL`, headers: { accept: 'text/xml' } });
  } finally {
    await t.close();
  }
}

const TLS: NetworkOptions = { caFile: TLS_FILES.ca, clientCert: TLS_FILES.clientCert, clientKey: TLS_FILES.clientKey };

describe('through a proxy', () => {
  test("http://: forwarded in absolute form, the extra headers beneath the binding's", async () => {
    const before = proxy.counts.forwarded;
    const t = new Transport({
      network: {
        httpProxy: { url: proxy.url },
        headers: [
          { name: 'X-Api-Key', value: 'k' },
          { name: 'Accept', value: 'never' },
        ],
      },
    });
    try {
      const ex = await t.send({
        method: 'GET',
        url: `${mock.url}/1/SOAP/Booking.asmx?WSDL`,
        headers: { accept: 'text/xml' },
      });
      expect(ex.response?.status, ex.error?.message).toBe(200);
    } finally {
      await t.close();
    }
    expect(proxy.counts.forwarded).toBe(before + 1);
    expect(proxy.headers.at(-1)).toMatchObject({ 'x-api-key': 'k', accept: 'text/xml' });
  });

  test("https://: a CONNECT tunnel, the target's TLS end to end with the CA file and the client certificate", async () => {
    const [tunnels, accepted] = [proxy.counts.tunnels, front.counts.accepted];
    const ex = await wsdl(front.url, { ...TLS, httpsProxy: { url: proxy.url } });
    expect(ex.response?.status, ex.error?.message).toBe(200);
    expect(proxy.counts.tunnels).toBe(tunnels + 1);
    expect(front.counts.accepted).toBe(accepted + 1);
  });

  test('NO_PROXY: the target bypasses it', async () => {
    const before = proxy.counts.forwarded;
    const ex = await wsdl(mock.url, { httpProxy: { url: proxy.url }, noProxy: '127.0.0.1' });
    expect(ex.response?.status).toBe(200);
    expect(proxy.counts.forwarded).toBe(before);
  });

  test(
    'credentials in the proxy URL are sent to the proxy; without them its 407 is said in plain words '
      + '(forwarded and CONNECT)',
    async () => {
      const ok = await wsdl(mock.url, { httpProxy: { url: authed.url.replace('//', '//alice:s3cret@') } });
      expect(ok.response?.status, ok.error?.message).toBe(200);
      expect(authed.auth.at(-1)).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
      for (const [base, net] of [
        [mock.url, { httpProxy: { url: authed.url } }],
        [front.url, { ...TLS, httpsProxy: { url: authed.url } }],
      ] as const) {
        const refused = await wsdl(base, net);
        expect(refused.error?.message, base).toMatch(
          /^the proxy demands credentials \(HTTP 407 Proxy Authentication Required\): give them in the proxy URL/,
        );
      }
    },
  );
});

describe('TLS', () => {
  test(
    'the test CA\'s target: trusted with the CA file, "not signed by a CA you trust: pass --ca-file" ' + 'without it',
    async () => {
      const ok = await wsdl(front.url, TLS);
      expect(ok.response?.status, ok.error?.message).toBe(200);
      const untrusted = await wsdl(front.url, { clientCert: TLS_FILES.clientCert, clientKey: TLS_FILES.clientKey });
      expect(untrusted.error).toMatchObject({ code: 'tls_error' });
      expect(untrusted.error!.message).toMatch(
        /^TLS failure: the target's certificate is not signed by a CA you trust \([A-Z_]+\): pass --ca-file PEM/,
      );
    },
  );

  test("the CA file adds to the system's CAs, it does not replace them", async () => {
    const { trustedCas } = await import('./network.js');
    const { rootCertificates } = await import('node:tls');
    const { readFileSync } = await import('node:fs');
    const ca = trustedCas(TLS_FILES.ca);
    // Node's roots (and NODE_EXTRA_CA_CERTS, where set), then the file's.
    for (const root of rootCertificates) expect(ca).toContain(root);
    expect(ca.at(-1)).toBe(readFileSync(TLS_FILES.ca, 'utf8'));
  });

  test.each<[string, string, string, NetworkOptions | undefined, RegExp]>([
    [
      'a private CA, no --ca-file',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      undefined,
      /^the target's certificate is not signed by a CA you trust .*pass --ca-file PEM/,
    ],
    [
      'a CA file that is not the right one',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      'unable to get local issuer certificate',
      { caFile: '/x/ca.pem' },
      /signed neither by the CA in --ca-file \/x\/ca\.pem nor by a system CA/,
    ],
    ['an expired certificate', 'CERT_HAS_EXPIRED', 'certificate has expired', undefined, /has expired/],
    [
      'another host name',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames",
      undefined,
      /is for another host name/,
    ],
    [
      'a TLS 1.3 alert: certificate required, none given',
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      'tlsv13 alert certificate required',
      undefined,
      /demands a client certificate: pass --client-cert PEM and --client-key PEM \(or --client-pfx FILE\)/,
    ],
    [
      'a TLS 1.2 handshake failure, none given',
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      'sslv3 alert handshake failure',
      undefined,
      /demands a client certificate/,
    ],
    [
      'the client certificate refused',
      'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
      'error:0A000418:SSL routines::tlsv1 alert unknown ca:../ssl/record/rec_layer_s3.c:1584:SSL alert number 48',
      { clientCert: '/c/me.pem' },
      /^the target refused the client certificate in --client-cert \/c\/me\.pem \(alert unknown ca\)$/,
    ],
  ])('%s: said in plain words', (_what, code, message, net, expected) => {
    expect(tlsFailure(code, message, net)).toMatch(expected);
  });

  test("an unknown TLS failure keeps OpenSSL's words; a proxy's other refusals are named", () => {
    expect(tlsFailure('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number', undefined)).toBeUndefined();
    expect(proxyFailure('Proxy response (403) !== 200 when HTTP Tunneling')).toBe(
      'the proxy refused to open a tunnel to the target (HTTP 403 to CONNECT)',
    );
    expect(proxyFailure('other side closed')).toBeUndefined();
  });
});
