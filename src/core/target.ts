/** Where and how to reach a service under test: the target, its second account and the network path to it. */
import type { Namespaces, ServicePaths } from '../contract/catalogue.js';

/** Where and how to reach a service under test. Everything about a target is configuration. */
export interface Target {
  /** Base URLs; the service paths of section 4 are appended. */
  readonly bookUrl: string;
  readonly searchUrl: string;
  /** SearchTransfers' base URL (contract: not shown); defaults to searchUrl. */
  readonly transfersUrl: string;
  /** Service paths per group and binding kind (section 4's by default; deployments differ). */
  readonly paths: ServicePaths;
  readonly namespaces: Namespaces;
  readonly user: string;
  readonly password: string;
  /** The environment variable a reproduce command reads the password from (default CONFORMANCE_PASSWORD). */
  readonly passwordVariable?: string;
  /**
   * A second account of the same service (`--other-user`, its password in CONFORMANCE_OTHER_PASSWORD):
   * the foreign-account sequences (src/sequences/foreign-account.ts) call the first account's bookings
   * with it. Absent: authorization across accounts is not tested, and the reports say so.
   */
  readonly other?: OtherAccount;
  /**
   * Where each given setting came from ("--book-ns", "environment variable CONFORMANCE_BOOK_NS",
   * "target.json: target.bookNs"), keyed by config key (bookUrl, bookNs, ...): a hint about a value
   * names the place to change it. Absent: a flag's name is given.
   */
  readonly sources?: Readonly<Partial<Record<SettingKey, string>>>;
  /** True for the mock this harness starts itself: mutations are then always allowed. */
  readonly embedded: boolean;
  /**
   * Proxies, TLS files and extra headers (docs/real-service.md): the transport and the reproduce commands use the same.
   */
  readonly network?: NetworkOptions;
}

/**
 * A second account: its user name, its password (a secret, redacted like the first) and the variable a reproduce
 * command reads it from.
 */
export interface OtherAccount {
  readonly user: string;
  readonly password: string;
  /** Default CONFORMANCE_OTHER_PASSWORD. */
  readonly passwordVariable?: string;
}

/**
 * A proxy and, when it came from one, the environment variable that held it (a reproduce command with credentials names
 * it).
 */
export interface ProxySetting {
  readonly url: string;
  readonly variable?: string;
  /**
   * The URL named a user and no password, and its password came from this variable
   * (CONFORMANCE_PROXY_PASSWORD, or the one target.proxyPasswordEnv names): `url` holds it now, and a
   * re-run command names the variable, never the password.
   */
  readonly passwordVariable?: string;
}

/**
 * An extra request header; `variable`: its value came from that environment variable (a secret: redacted, named in
 * commands).
 */
export interface ExtraHeader {
  readonly name: string;
  readonly value: string;
  readonly variable?: string;
}

/**
 * How a company's network is reached: proxies per scheme and the hosts that bypass them, the TLS
 * files (paths; the transport reads them), the client PKCS#12's passphrase and the variable it came
 * from, TLS verification off (--insecure-tls), and headers added to every request.
 */
export interface NetworkOptions {
  readonly httpProxy?: ProxySetting;
  readonly httpsProxy?: ProxySetting;
  /** NO_PROXY's syntax: host names (a leading "." or "*." for subdomains), optional ":port", "*" for all. */
  readonly noProxy?: string;
  readonly caFile?: string;
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly clientPfx?: string;
  readonly pfxPassphrase?: string;
  readonly pfxPassphraseVariable?: string;
  readonly insecureTls?: boolean;
  readonly headers?: readonly ExtraHeader[];
}

/**
 * The network path of a run, as its reports' headers name it: never a credential or a header's value.
 * `proxies`: the proxies the target's URLs went through (scheme://host:port); `bypassed`: the target
 * hosts that went direct although a proxy was set (NO_PROXY); the client certificate's subject is
 * read from the certificate (absent when it could not be read).
 */
export interface NetworkPath {
  readonly proxies?: readonly string[];
  readonly noProxy?: string;
  readonly bypassed?: readonly string[];
  readonly caFile?: string;
  readonly clientCertificate?: { readonly file: string; readonly subject?: string };
  /** The extra headers' names, never their values. */
  readonly headers?: readonly string[];
  readonly insecureTls?: boolean;
}

/**
 * The target settings a hint may name the source of: `otherUser` and `otherPassword` are the second
 * account's (a refused login of it names where its user name and password came from).
 */
export type SettingKey =
  | 'bookUrl'
  | 'searchUrl'
  | 'transfersUrl'
  | 'bookPath'
  | 'searchPath'
  | 'transfersPath'
  | 'bookNs'
  | 'searchNs'
  | 'otherUser'
  | 'otherPassword';
