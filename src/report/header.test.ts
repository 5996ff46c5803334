/**
 * The headers of conformance.html and conformance.md name the second account (never its password)
 * and the network path (issue 41, item 5): the proxy's address without its credentials, NO_PROXY and
 * the hosts it let go direct, the CA file, the client certificate's subject read from the certificate
 * (PEM or PKCS#12), the extra headers' names and never their values; conformance.json holds the same
 * (target.networkPath, valid against its schema).
 */
import { describe, expect, test } from 'vitest';
import type { NetworkOptions, RunReport } from '../core/types.js';
import { networkPathOf } from '../engine/network-path.js';
import { reportSchema, validateJson } from '../schema/json.js';
import { fixtureReport } from '../../test/support/report.js';
import { PFX_PASSPHRASE, TLS_FILES } from '../../test/support/network.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

const PROXY_PASSWORD = 'pr0xy-Secret-9';
const KEY = 'api-key-value-4711';
const NET: NetworkOptions = {
  httpsProxy: { url: `http://alice:${PROXY_PASSWORD}@proxy.corp.example:3128`, variable: 'HTTPS_PROXY' },
  noProxy: 'search.internal.example',
  caFile: TLS_FILES.ca,
  clientCert: TLS_FILES.clientCert,
  clientKey: TLS_FILES.clientKey,
  headers: [
    { name: 'X-Api-Key', value: KEY, variable: 'ACME_KEY' },
    { name: 'X-Tenant', value: 'acme' },
  ],
};
const URLS = {
  bookUrl: 'https://book.example',
  searchUrl: 'https://search.internal.example',
  transfersUrl: 'https://search.internal.example',
};

function report(target: Partial<RunReport['target']>): RunReport {
  const f = fixtureReport();
  return { ...f, target: { ...f.target, ...URLS, embedded: false, ...target } };
}
const pages = (r: RunReport) => ({ html: renderHtml(r), md: renderMarkdown(r) });

describe('the network path (engine/network-path.ts)', () => {
  test(
    "the proxy's address without credentials, the hosts NO_PROXY let go direct, the CA file, the "
      + "certificate's subject, the headers' names",
    () => {
      const p = networkPathOf({ ...URLS, network: NET })!;
      expect(p).toEqual({
        proxies: ['http://proxy.corp.example:3128'],
        noProxy: 'search.internal.example',
        bypassed: ['search.internal.example'],
        caFile: TLS_FILES.ca,
        clientCertificate: { file: TLS_FILES.clientCert, subject: 'CN=conformance test client' },
        headers: ['X-Api-Key', 'X-Tenant'],
      });
      expect(JSON.stringify(p)).not.toContain(PROXY_PASSWORD);
      expect(JSON.stringify(p)).not.toContain(KEY);
      expect(JSON.stringify(p)).not.toContain('alice');
    },
  );

  test("a PKCS#12's subject, read with its passphrase; none when it went direct with no setting", () => {
    expect(
      networkPathOf({ ...URLS, network: { clientPfx: TLS_FILES.clientPfx, pfxPassphrase: PFX_PASSPHRASE } })
        ?.clientCertificate,
    ).toEqual({ file: TLS_FILES.clientPfx, subject: 'CN=conformance test client' });
    expect(networkPathOf({ ...URLS })).toBeUndefined();
    expect(networkPathOf({ ...URLS, network: {} })).toBeUndefined();
  });

  test("conformance.json's target with it is valid against the report schema", () => {
    const r = report({
      networkPath: networkPathOf({ ...URLS, network: { ...NET, insecureTls: true } }),
      otherUser: 'acme-2',
    });
    expect(validateJson(JSON.parse(JSON.stringify(r)), reportSchema())).toEqual([]);
  });
});

describe('the HTML and Markdown headers', () => {
  const r = report({ otherUser: 'acme-second', networkPath: networkPathOf({ ...URLS, network: NET }) });

  test("name the second account's user and the network path", () => {
    const { html, md } = pages(r);
    for (const page of [html, md]) {
      expect(page).toContain('acme-second');
      expect(page).toContain('http://proxy.corp.example:3128');
      expect(page).toContain('search.internal.example');
      expect(page).toContain(TLS_FILES.ca);
      expect(page).toContain('CN=conformance test client');
      expect(page).toContain('X-Api-Key');
      expect(page).toContain('X-Tenant');
    }
    expect(html).toContain('<dt>Second account</dt><dd><code>acme-second</code>');
    expect(html).toContain('<dt>Network path</dt><dd>Proxy: <code>http://proxy.corp.example:3128</code>');
    expect(md).toMatch(/^Target: .* · second account `acme-second` \(authorization across accounts\) · /m);
    expect(md).toMatch(
      /^Network: Proxy `http:\/\/proxy\.corp\.example:3128` \(direct for `search\.internal\.example`, by NO\\_PROXY `search\.internal\.example`\) · CA file `[^`]+` · Client certificate `CN=conformance test client` \(`[^`]+client\.pem`\) · Extra headers `X-Api-Key`, `X-Tenant` \(values not shown\)$/m,
    );
  });

  test("never a password, the proxy's credentials or a header's value", () => {
    const { html, md } = pages(r);
    for (const page of [html, md]) {
      expect(page).not.toContain(PROXY_PASSWORD);
      expect(page).not.toContain(KEY);
      expect(page).not.toContain('alice');
      expect(page).not.toContain('acme-second-password');
    }
  });

  test(
    'no second account: said so (authorization across accounts not tested); no network setting: no ' + 'network line',
    () => {
      const { html, md } = pages(report({}));
      expect(md).toMatch(/^Target: .* · no second account \(authorization across accounts not tested\) · /m);
      expect(html).toContain('<dt>Second account</dt><dd>none given: authorization across accounts not tested</dd>');
      expect(md).not.toMatch(/^Network:/m);
      expect(html).not.toContain('Network path');
    },
  );

  test('TLS verification off is named', () => {
    const { html, md } = pages(report({ networkPath: { insecureTls: true } }));
    expect(md).toMatch(/^Network: TLS verification off \(--insecure-tls\)$/m);
    expect(html).toContain('TLS verification: off (--insecure-tls)');
  });
});
