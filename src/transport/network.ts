/**
 * A company's network as undici reaches it: the proxy a URL goes through (./proxy.ts: or none, by
 * NO_PROXY), the TLS options (a private CA added to the system's, a client certificate or PKCS#12),
 * the TLS files checked, and TLS and proxy failures in plain words. The reproduce commands
 * (./curl.ts) read the same NetworkOptions, so a pasted command goes the way the run went.
 */
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import type { Agent as AgentTypes, Dispatcher } from 'undici';
import { Agent, Dispatcher as DispatcherBase, ProxyAgent } from './undici.js';
import type { NetworkOptions } from '../core/types.js';
import { proxyFor } from './proxy.js';

/**
 * The CAs trusted: the system's plus `extra`. A `ca` option replaces Node's default store, so the
 * default is given again: Node's bundled roots and NODE_EXTRA_CA_CERTS (listed by Node 22+, read
 * here before that).
 */
function withSystemCas(extra: string): string[] {
  const list = (tls as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
  if (list) return [...list('default'), extra];
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  let more: string[] = [];
  try {
    if (extraFile) more = [readFileSync(extraFile, 'utf8')];
  } catch {
    // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS.
  }
  return [...tls.rootCertificates, ...more, extra];
}
/** The CAs a connection trusts with --ca-file: the system's, then the file's. */
export function trustedCas(caFile: string): string[] {
  return withSystemCas(readFileSync(caFile, 'utf8'));
}

/**
 * The TLS options of a connection to the target: one secure context made now (files read once, the
 * settings checked them already; a context per connection would parse every root CA again), and
 * verification off with --insecure-tls.
 */
export function tlsOptions(net: NetworkOptions | undefined): ConnectionOptions {
  if (!net) return {};
  const read = (f: string) => readFileSync(f);
  const material: tls.SecureContextOptions = {
    ...(net.caFile ? { ca: trustedCas(net.caFile) } : {}),
    ...(net.clientCert ? { cert: read(net.clientCert) } : {}),
    ...(net.clientKey ? { key: read(net.clientKey) } : {}),
    ...(net.clientPfx
      ? { pfx: read(net.clientPfx), ...(net.pfxPassphrase !== undefined ? { passphrase: net.pfxPassphrase } : {}) }
      : {}),
  };
  return {
    ...(Object.keys(material).length ? { secureContext: tls.createSecureContext(material) } : {}),
    ...(net.insecureTls ? { rejectUnauthorized: false } : {}),
  };
}

/**
 * What is wrong with a TLS file for its role, in plain words, or undefined when it is usable:
 * unreadable, not PEM, no certificate in a CA file, a key that does not match its certificate, a
 * PKCS#12 whose passphrase is wrong.
 */
export function tlsFileProblem(
  role: 'ca' | 'cert' | 'key' | 'pfx',
  file: string,
  other?: { cert?: string; key?: string; passphrase?: string },
): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return (
      `cannot be `
      + `read: ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message}`
    );
  }
  const text = bytes.toString('latin1');
  try {
    if (role === 'ca' || role === 'cert') {
      const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
      if (blocks.length === 0) return `holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): ${file}`;
      for (const b of blocks) new X509Certificate(b);
      if (role === 'ca') tls.createSecureContext({ ca: text });
      if (role === 'cert' && other?.key !== undefined)
        tls.createSecureContext({ cert: bytes, key: readFileSync(other.key) });
      return undefined;
    }
    if (role === 'key') {
      if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
        return `holds no PEM private key ("-----BEGIN PRIVATE KEY-----"): ${file}`;
      tls.createSecureContext({ key: bytes });
      return undefined;
    }
    tls.createSecureContext({
      pfx: bytes,
      ...(other?.passphrase !== undefined ? { passphrase: other.passphrase } : {}),
    });
    return undefined;
  } catch (e) {
    const m = (e as Error).message;
    if (role === 'pfx' && /mac verify|password|decrypt/i.test(m))
      return `cannot be opened with the passphrase given (a wrong or missing passphrase): ${file}`;
    if (role === 'pfx') return `is not a PKCS#12 file Node can read: ${file}: ${m}`;
    if (/key values mismatch/i.test(m)) return `does not belong to the key in --client-key ${other?.key}: ${file}`;
    if (role === 'key' && /bad decrypt|passphrase/i.test(m))
      return (
        `is an encrypted private key: give it decrypted (or use --client-pfx with `
        + `CONFORMANCE_CLIENT_PFX_PASSPHRASE): ${file}`
      );
    return `is not a valid PEM ${role === 'key' ? 'private key' : 'certificate'}: ${file}: ${m}`;
  }
}

/**
 * A dispatcher that sends each request straight or through the proxy its URL takes (proxyFor), with
 * the target's TLS options on either way. The http proxy is a plain forward proxy for http:// URLs
 * (as curl uses it) and a CONNECT tunnel for https:// ones.
 */
class ProxyRouter extends DispatcherBase {
  readonly #byUrl = new Map<string, Dispatcher>();
  constructor(
    readonly direct: Dispatcher,
    readonly net: NetworkOptions,
    readonly make: (proxy: string) => Dispatcher,
  ) {
    super();
  }

  #pick(origin: string): Dispatcher {
    const proxy = proxyFor(origin, this.net);
    if (!proxy) return this.direct;
    let d = this.#byUrl.get(proxy.url);
    if (!d) this.#byUrl.set(proxy.url, (d = this.make(proxy.url)));
    return d;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.#pick(String(opts.origin)).dispatch(opts, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const p = Promise.all([this.direct, ...this.#byUrl.values()].map((d) => d.close())).then(() => undefined);
    if (callback) void p.then(callback);
    else return p;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: unknown, b?: unknown): Promise<void> | void {
    const err = a instanceof Error ? a : null;
    const callback =
      typeof a === 'function' ? (a as () => void) : typeof b === 'function' ? (b as () => void) : undefined;
    const p = Promise.all([this.direct, ...this.#byUrl.values()].map((d) => d.destroy(err))).then(() => undefined);
    if (callback) void p.then(callback);
    else return p;
  }
}

/** The transport's dispatcher: an Agent with the TLS options, behind a ProxyRouter when a proxy is set. */
export function createDispatcher(
  net: NetworkOptions | undefined,
  agent: AgentTypes.Options & { connect?: ConnectionOptions & { timeout?: number } },
): Dispatcher {
  const connect = { ...agent.connect, ...tlsOptions(net) };
  const direct = new Agent({ ...agent, connect });
  if (!net?.httpProxy && !net?.httpsProxy) return direct;
  // An https:// proxy is verified against the same CAs; the client certificate is the target's, not the proxy's.
  const proxyTls = {
    ...(net.caFile ? { ca: trustedCas(net.caFile) } : {}),
    ...(net.insecureTls ? { rejectUnauthorized: false } : {}),
  };
  return new ProxyRouter(
    direct,
    net,
    (uri) =>
      new ProxyAgent({
        ...agent,
        uri,
        proxyTunnel: false,
        requestTls: connect,
        proxyTls: { ...proxyTls, timeout: connect.timeout },
      }),
  );
}

/** OpenSSL's verification codes that say the chain does not end at a trusted CA. */
const UNTRUSTED =
  /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED/;

/**
 * A TLS failure in plain words, naming the file and the flag to pass; undefined when it is none of
 * the failures known here (the caller keeps OpenSSL's words).
 */
export function tlsFailure(code: string, message: string, net: NetworkOptions | undefined): string | undefined {
  const both = `${code} ${message}`;
  if (UNTRUSTED.test(both)) {
    return net?.caFile
      ? `the target's certificate is signed neither by the CA in --ca-file ${net.caFile} nor by a system `
          + `CA (${code || message}): give the CA that signed it`
      : `the target's certificate is not signed by a CA you trust (${code || message}): pass --ca-file `
          + `PEM with the CA that signed it (or --insecure-tls to skip the check)`;
  }
  if (/CERT_HAS_EXPIRED/.test(both)) return `the target's certificate has expired (${code})`;
  if (/CERT_NOT_YET_VALID/.test(both))
    return `the target's certificate is not valid yet (${code}): check this machine's clock`;
  if (/ALTNAME_INVALID|Hostname\/IP does not match/i.test(both))
    return `the target's certificate is for another host name: ${message}`;
  const given = net?.clientPfx
    ? `--client-pfx ${net.clientPfx}`
    : net?.clientCert
      ? `--client-cert ${net.clientCert}`
      : undefined;
  if (/certificate.required|ALERT_HANDSHAKE_FAILURE|handshake.failure/i.test(both) && !given) {
    return (
      `the target refused the TLS handshake: it demands a client certificate: pass --client-cert PEM and `
      + `--client-key PEM (or --client-pfx FILE) (${code || message})`
    );
  }
  if (
    /alert.(unknown.ca|bad.certificate|certificate.unknown|certificate.required|handshake.failure|access.denied|certificate.revoked|certificate.expired)/i.test(
      both,
    )
    && given
  ) {
    return (
      `the target refused the client certificate in ${given} `
      + `(${message.replace(/^.*?alert /i, 'alert ').replace(/:.*$/, '')})`
    );
  }
  return undefined;
}

/**
 * A proxy's refusal in plain words (undici says "Proxy Authentication Required (407)" or "Proxy response (407) !== 200
 * when HTTP Tunneling").
 */
export function proxyFailure(message: string): string | undefined {
  const status = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(message);
  if (!status) return undefined;
  const code = status[1] ?? status[2];
  return code === '407'
    ? 'the proxy demands credentials (HTTP 407 Proxy Authentication Required): give them in the proxy '
        + 'URL, http://user:password@host:port (in CONFORMANCE_PROXY or HTTPS_PROXY), or name the user only '
        + '(http://user@host:port, also in a config file) and put the password in CONFORMANCE_PROXY_PASSWORD '
        + '(or the variable target.proxyPasswordEnv names)'
    : `the proxy refused to open a tunnel to the target (HTTP ${code} to CONNECT)`;
}

/**
 * The request's headers with the extra ones added beneath them: a name the request already has (in any letter case)
 * keeps its own value.
 */
export function withExtraHeaders(
  extra: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const taken = new Set(Object.keys(own).map((k) => k.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(extra)) if (!taken.has(k.toLowerCase())) out[k] = v;
  return { ...out, ...own };
}
