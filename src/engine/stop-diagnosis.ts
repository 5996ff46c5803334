/**
 * Why the transport stopped a run at once (transport/watch.ts): a refusal of the whole target, or an
 * outage from its first answers, said with the setting that fixes it and where that setting came from.
 */
import type { Diagnosis, Target } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { hostOf } from '../transport/client.js';
import { proxyPassword } from '../transport/proxy.js';
import { MID_RUN_FACTOR, type Judgement } from '../transport/watch.js';
import { plainHttpPort, tlsClosedAdvice, urlSettingsOf } from './setting-advice.js';

/** Where a proxy came from, in the words of its source. */
function proxySource(proxy: NonNullable<Judgement['proxy']>): string {
  const url = proxy.variable
    ? `the environment variable ${proxy.variable}`
    : "--proxy (or the config file's target.proxy)";
  // The URL named the user, its password came from a variable of its own (engine/network-settings.ts).
  return proxy.passwordVariable ? `${url} (the user) and the variable ${proxy.passwordVariable} (the password)` : url;
}

/**
 * The diagnosis of a run the transport stopped at once (transport/watch.ts: a refusal of the whole
 * target, or an outage from its first answers): the cause first, then the setting that fixes it and
 * where that setting came from. Its code is the judgement's (core/verdict.ts STOP_CODES: an OUTAGE,
 * exit 4); the first words, up to ": ", are the verdict's reason. Nothing here blames a client
 * certificate for a connection closed before the TLS handshake was done.
 */
export function stopDiagnosis(
  j: Judgement,
  target: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'sources' | 'network'>,
): Diagnosis {
  const net = target.network;
  const host = hostOf(j.origin);
  const hostname = (() => {
    try {
      return new URL(j.origin).hostname;
    } catch {
      return host;
    }
  })();
  const times = j.inRow > 1 ? ` (${j.inRow} times in a row)` : '';
  const proxyUrl = j.proxy ? redactUserInfo(j.proxy.url) : undefined;
  const bypass =
    net?.noProxy !== undefined
      ? `it went direct, not through the proxy, because NO_PROXY (${net.noProxy}; the variable NO_PROXY `
        + `or no_proxy, or the config's target.noProxy) names ${hostname}`
      : 'it went direct';
  const message = ((): string => {
    switch (j.code) {
      case 'proxy_refused': {
        if (j.status !== 407 && !/\b407\b/.test(j.detail)) {
          return (
            `the proxy ${proxyUrl ?? ''} refused to open a tunnel to ${j.origin} (${j.detail}): ask `
            + `for ${host} to be let through it, or list ${hostname} in NO_PROXY if it is reached directly`
          );
        }
        if (!j.proxy)
          return (
            `something in front of ${j.origin} demands proxy credentials (HTTP 407 Proxy Authentication `
            + `Required): set the proxy with them (--proxy http://user:password@host:port, or HTTPS_PROXY / `
            + `HTTP_PROXY)`
          );
        return proxyPassword(j.proxy.url) !== undefined || /\/\/[^/@]+@/.test(j.proxy.url)
          ? `the proxy ${proxyUrl} refused the credentials given (HTTP 407 Proxy Authentication `
              + `Required): check the user name and password in ${proxySource(j.proxy)}, where they were `
              + `given; `
              + 'the run stopped at its first refusal so as not to lock the account with more attempts'
          : `the proxy ${proxyUrl} demands credentials (HTTP 407 Proxy Authentication Required): give `
              + `them in ${proxySource(j.proxy)} as http://user:password@host:port`;
      }
      case 'tls_untrusted':
        return `the certificate of ${j.origin} is not trusted: ${j.detail.replace(/^TLS failure: /, '')}`;
      case 'tls_refused':
        return plainHttpPort(j.detail)
          ? `${host} does not answer TLS: the port answers plain HTTP: use http:// `
              + `(${j.origin.replace(/^https:/, 'http:')}) in ${urlSettingsOf(target, j.origin)}`
          : `${j.origin} refused the TLS handshake: ${j.detail.replace(/^TLS failure: /, '')}`;
      case 'tls_closed':
        return `${tlsClosedAdvice(host, target).replace(' closed the TLS connection without an answer', ` closed the TLS connection right after the handshake, without an answer${times}`)}`;
      case 'closed_before_tls': {
        const what = j.origin.startsWith('https:')
          ? 'closed the connection before the TLS handshake was done'
          : 'closed the connection as soon as it was opened';
        if (j.bypassed) {
          return (
            `${j.origin} ${what}${times}: ${bypass}: a network that demands its proxy drops direct `
            + `connections: take ${hostname} out of NO_PROXY `
            + `(the proxy `
            + `is ${redactUserInfo((j.origin.startsWith('https:') ? net?.httpsProxy : net?.httpProxy)?.url ?? '')})`
          );
        }
        if (proxyUrl)
          return (
            `the connection to ${j.origin} through the proxy ${proxyUrl} was closed before the TLS `
            + `handshake was done${times}: the proxy or the target drops it (${j.detail})`
          );
        return (
          `${j.origin} ${what}${times} (${j.detail}): something on the way drops direct connections: if `
          + `this network demands a proxy, set it (--proxy, or HTTPS_PROXY)`
        );
      }
      case 'unknown_host':
        return j.bypassed
          ? `the name ${hostname} does not resolve (${j.detail}): ${bypass}: a name only the proxy `
              + `resolves must go through it: take ${hostname} out of NO_PROXY`
          : `the name ${hostname} does not resolve (${j.detail}): check the host `
              + `in ${urlSettingsOf(target, j.origin)}${j.proxy ? '' : ', or set the proxy (--proxy, or HTTPS_PROXY) where only the proxy resolves it'}`;
      case 'gateway_refusal': {
        const headers = net?.headers ?? [];
        const page =
          `HTTP ${j.status} `
          + `page${j.page ? ` ("${j.page}"${j.contentType ? `, ${j.contentType.split(';')[0]}` : ''})` : ''}`;
        const fix = headers.length
          ? `it does not accept the headers given `
            + `(${headers.map((h) => (h.variable ? `${h.name} from the variable ${h.variable}` : h.name)).join(', ')}; `
            + `--header `
            + `or the config's target.headers): check their names and values`
          : "it likely demands a header (an API key, a token): pass --header 'Name: value' (--header "
            + "'Name: env:VARIABLE' for a secret; or the config's target.headers)";
        return (
          `every request got the same ${page} from ${j.origin}, not an answer of the service${times}: `
          + `the service answers wrong credentials in band, `
          + `never with a page, so something in front of it refuses the requests: ${fix}`
        );
      }
      case 'target_down':
        if (j.midRun) {
          return (
            `the target ${j.origin} went down during the run: ${j.inRow} answers in a row were `
            + `transient (the last: ${j.detail}): no verdict on the contract (an outage, exit 4): `
            + `try again when it is up (once it has answered, the run stops after ${MID_RUN_FACTOR} × `
            + `--give-up-after ${j.inRow / MID_RUN_FACTOR} transient answers in a row)`
          );
        }
        return (
          `the target ${j.origin} is `
          + `down: ${j.inRow === 1 ? 'its first answer was transient' : `its first ${j.inRow} answers were all transient`} `
          + `(the `
          + `last: ${j.detail}), and none was its own: `
          + `no verdict on the contract (an outage, exit 4): try again when it is up (a run stops after `
          + `--give-up-after transient answers in a row at its start; ${j.inRow} came)`
        );
    }
  })();
  return { level: 'error', code: j.code, message: redactUserInfo(message) };
}
