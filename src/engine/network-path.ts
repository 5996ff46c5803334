/**
 * The network path a run took, for the reports' headers (issue 41, item 5): which proxy the target's
 * URLs went through (its scheme, host and port: never its credentials) and which hosts bypassed it,
 * the CA file trusted, the client certificate's subject (read from the certificate, so a report says
 * which identity was presented, not only which file), the names of the extra headers (never their
 * values: one may be an API key) and TLS verification off. Nothing here is a secret; the report
 * writers' guard (report/secrets.ts) checks the pages anyway.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import type { NetworkOptions, NetworkPath, Target } from '../core/types.js';
import { proxyFor } from '../transport/proxy.js';

/** A certificate's subject on one line ("CN=client, O=Acme"), or undefined when it cannot be read. */
function subjectOf(der: Buffer | string): string | undefined {
  try {
    return new X509Certificate(der).subject.split('\n').join(', ');
  } catch {
    return undefined;
  }
}

/**
 * The subject of the client certificate: the PEM file's first certificate, or the PKCS#12's (opened
 * with its passphrase; Node exposes its certificate only through the secure context it makes).
 */
export function clientSubject(
  net: Pick<NetworkOptions, 'clientCert' | 'clientPfx' | 'pfxPassphrase'>,
): string | undefined {
  try {
    if (net.clientCert) return subjectOf(readFileSync(net.clientCert));
    if (net.clientPfx) {
      const context = createSecureContext({
        pfx: readFileSync(net.clientPfx),
        ...(net.pfxPassphrase !== undefined ? { passphrase: net.pfxPassphrase } : {}),
      });
      const der = (context.context as { getCertificate?: () => Buffer | null }).getCertificate?.();
      return der ? subjectOf(der) : undefined;
    }
  } catch {
    // The settings checked the files before the run; one gone since is not the report's to fail on.
  }
  return undefined;
}

/** A proxy URL as scheme://host:port, its credentials dropped. */
function proxyAddress(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.replace(/\/\/.*@/s, '//');
  }
}

/** The network path of the target's URLs, or undefined when the run went direct with no network setting. */
export function networkPathOf(
  t: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'network'>,
): NetworkPath | undefined {
  const net = t.network;
  if (!net) return undefined;
  const urls = [...new Set([t.bookUrl, t.searchUrl, t.transfersUrl].filter((u) => u !== ''))];
  const proxies = [
    ...new Set(
      urls
        .map((u) => proxyFor(u, net))
        .filter((p) => p !== undefined)
        .map((p) => proxyAddress(p.url)),
    ),
  ];
  const given = net.httpProxy !== undefined || net.httpsProxy !== undefined;
  const subject = net.clientCert || net.clientPfx ? clientSubject(net) : undefined;
  const path: NetworkPath = {
    ...(proxies.length ? { proxies } : {}),
    ...(given && net.noProxy ? { noProxy: net.noProxy } : {}),
    ...(given && proxies.length < urls.length
      ? { bypassed: urls.filter((u) => !proxyFor(u, net)).map((u) => new URL(u).host) }
      : {}),
    ...(net.caFile ? { caFile: net.caFile } : {}),
    ...(net.clientCert || net.clientPfx
      ? {
          clientCertificate: {
            file: (net.clientCert ?? net.clientPfx)!,
            ...(subject !== undefined ? { subject } : {}),
          },
        }
      : {}),
    ...(net.headers?.length ? { headers: net.headers.map((h) => h.name) } : {}),
    ...(net.insecureTls ? { insecureTls: true } : {}),
  };
  return Object.keys(path).length ? path : undefined;
}

/** The report target's `networkPath` key, when there is a path to name. */
export function withNetworkPath(t: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'network'>): {
  networkPath?: NetworkPath;
} {
  const networkPath = networkPathOf(t);
  return networkPath ? { networkPath } : {};
}
