/**
 * The network settings of a run (docs/real-service.md, "Proxies, private CAs, client certificates,
 * headers"), each checked and named by its source as the other settings are (./settings.ts):
 *
 * - the proxy: `--proxy URL`, then CONFORMANCE_PROXY, then `target.proxy`, each for both schemes;
 *   else http_proxy / HTTP_PROXY for http:// targets and https_proxy / HTTPS_PROXY for https://
 *   ones (lower case first, as undici and curl read them; an https target never falls back to the
 *   http proxy, as with curl); `target.noProxy`, else no_proxy / NO_PROXY, lists the hosts that
 *   bypass it. The embedded mock (loopback) is never proxied;
 * - TLS: `--ca-file`, `--client-cert` with `--client-key`, or `--client-pfx` whose passphrase is
 *   read from CONFORMANCE_CLIENT_PFX_PASSPHRASE (or the variable `target.clientPfxPassphraseEnv`
 *   names), never from a flag; each file read and checked now (exit 2 naming flag and file);
 * - headers: `--header 'Name: value'` (repeatable) and `target.headers`; `--header 'Name: env:VAR'`
 *   and `{ "Name": { "env": "VAR" } }` take the value from the variable VAR, a secret.
 */
import { resolve } from 'node:path';
import { ConfigError, UsageError } from '../core/errors.js';
import type { ExtraHeader, NetworkOptions, ProxySetting } from '../core/types.js';
import { proxyPassword } from '../transport/proxy.js';
import { tlsFileProblem } from '../transport/network.js';
import type { SettingReader as Settings, Sourced } from './sourced.js';

/** The variable the client PKCS#12's passphrase is read from, unless the config names another. */
/** The environment variable of each network flag (part of the run's table, settings.ts RUN_ENV). */
export const NETWORK_ENV = {
  proxy: 'CONFORMANCE_PROXY',
  'ca-file': 'CONFORMANCE_CA_FILE',
  'client-cert': 'CONFORMANCE_CLIENT_CERT',
  'client-key': 'CONFORMANCE_CLIENT_KEY',
  'client-pfx': 'CONFORMANCE_CLIENT_PFX',
  // One "Name: value" per line, as --header takes them.
  header: 'CONFORMANCE_HEADERS',
} as const;
const envOf = (flag: keyof typeof NETWORK_ENV) => NETWORK_ENV[flag];

export const PFX_PASSPHRASE_VARIABLE = 'CONFORMANCE_CLIENT_PFX_PASSPHRASE';

/**
 * Headers the binding or the transport sets: a request must keep its own Content-Type and SOAPAction
 * (the contract's rows test exactly those), and framing and proxy headers are the transport's.
 */
const OWN_HEADERS = new Set(['content-type', 'soapaction', 'content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'upgrade', 'expect', 'proxy-authorization', 'proxy-connection']);

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

function bad(s: Pick<Sourced, 'source' | 'fromFile'>, message: string): never {
  throw new (s.fromFile ? ConfigError : UsageError)(`${s.source} ${message}`);
}

/** A URL with everything up to its last "@" hidden (credentials may hold any character). */
function hidden(v: string): string {
  return v.replace(/\/\/.*@/s, '//***@');
}

/** A proxy URL, checked: http:// or https://, a host, no query; credentials refused in a file (files get committed). */
function proxyUrl(s: Sourced<string>): string {
  let u: URL;
  try {
    u = new URL(s.value);
  } catch {
    return bad(s, `is not a valid proxy URL: ${JSON.stringify(hidden(s.value))} (e.g. http://proxy.example.com:3128)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad(s, `must be an http:// or https:// proxy URL (got ${u.protocol} in ${JSON.stringify(hidden(s.value))})`);
  if (!u.hostname) bad(s, `names no proxy host: ${JSON.stringify(hidden(s.value))}`);
  if (u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) bad(s, `must be a proxy's address only, without path or query: ${JSON.stringify(hidden(s.value))}`);
  if (s.fromFile && proxyPassword(s.value) !== undefined) {
    bad(s, 'holds a password: not accepted in a file (files get committed); put the URL in CONFORMANCE_PROXY or HTTPS_PROXY instead');
  }
  return s.value;
}

/** The proxies: the explicit one for both schemes, else the environment's per scheme. */
function proxiesOf(in_: Settings, env: NodeJS.ProcessEnv): Pick<NetworkOptions, 'httpProxy' | 'httpsProxy' | 'noProxy'> {
  const explicit = in_.string('proxy', envOf('proxy'), 'target.proxy');
  const fromEnv = (names: readonly string[]): ProxySetting | undefined => {
    const name = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (name === undefined) return undefined;
    return { url: proxyUrl({ value: env[name]!, source: `environment variable ${name}`, fromFile: false }), variable: name };
  };
  const noProxySetting = in_.string(undefined, undefined, 'target.noProxy');
  const noProxy = noProxySetting?.value ?? [env.no_proxy, env.NO_PROXY].find((v) => v !== undefined && v !== '');
  if (explicit) {
    const proxy: ProxySetting = { url: proxyUrl(explicit), ...(explicit.source === 'environment variable CONFORMANCE_PROXY' ? { variable: 'CONFORMANCE_PROXY' } : {}) };
    return { httpProxy: proxy, httpsProxy: proxy, ...(noProxy ? { noProxy } : {}) };
  }
  const httpProxy = fromEnv(['http_proxy', 'HTTP_PROXY']);
  const httpsProxy = fromEnv(['https_proxy', 'HTTPS_PROXY']);
  if (!httpProxy && !httpsProxy) return {};
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), ...(noProxy ? { noProxy } : {}) };
}

/** The TLS files, each read and checked now; paths made absolute (a reproduce command works from any directory). */
function tlsOf(in_: Settings, env: NodeJS.ProcessEnv): Pick<NetworkOptions, 'caFile' | 'clientCert' | 'clientKey' | 'clientPfx' | 'pfxPassphrase' | 'pfxPassphraseVariable'> {
  const ca = in_.string('ca-file', envOf('ca-file'), 'target.caFile');
  const cert = in_.string('client-cert', envOf('client-cert'), 'target.clientCert');
  const key = in_.string('client-key', envOf('client-key'), 'target.clientKey');
  const pfx = in_.string('client-pfx', envOf('client-pfx'), 'target.clientPfx');
  const check = (s: Sourced<string>, role: Parameters<typeof tlsFileProblem>[0], other?: Parameters<typeof tlsFileProblem>[2]) => {
    const problem = tlsFileProblem(role, s.value, other);
    if (problem) bad(s, problem);
    return resolve(s.value);
  };
  if (pfx && (cert || key)) bad(pfx, `and ${(cert ?? key)!.source} both give a client certificate: give either a PKCS#12 file or a PEM certificate and key`);
  if (cert && !key) bad(cert, 'needs its private key: pass --client-key PEM too (or target.clientKey)');
  if (key && !cert) bad(key, 'needs its certificate: pass --client-cert PEM too (or target.clientCert)');
  const out: ReturnType<typeof tlsOf> = {
    ...(ca ? { caFile: check(ca, 'ca') } : {}),
    ...(key ? { clientKey: check(key, 'key') } : {}),
  };
  if (cert && key) Object.assign(out, { clientCert: check(cert, 'cert', { key: key.value }) });
  if (pfx) {
    const named = in_.string(undefined, undefined, 'target.clientPfxPassphraseEnv');
    if (named && !VARIABLE.test(named.value)) bad(named, `must name an environment variable (letters, digits, _; got ${JSON.stringify(named.value)})`);
    const variable = named?.value ?? PFX_PASSPHRASE_VARIABLE;
    const passphrase = env[variable] === '' ? undefined : env[variable];
    const problem = tlsFileProblem('pfx', pfx.value, { passphrase });
    if (problem) bad(pfx, `${problem}${/passphrase/.test(problem) ? ` (the passphrase is read from the environment variable ${variable}${passphrase === undefined ? ', which is not set' : ''})` : ''}`);
    Object.assign(out, { clientPfx: resolve(pfx.value), ...(passphrase !== undefined ? { pfxPassphrase: passphrase, pfxPassphraseVariable: variable } : {}) });
  }
  return out;
}

/** A header's name, checked: an HTTP token, not one the binding or the transport sets. */
function headerName(s: Pick<Sourced, 'source' | 'fromFile'>, name: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) bad(s, `names an invalid header ${JSON.stringify(name)} (letters, digits and !#$%&'*+.^_\`|~-)`);
  if (OWN_HEADERS.has(name.toLowerCase())) {
    bad(s, `sets ${name}, which the harness sets itself (each binding's Content-Type and SOAPAction are what the contract tests; framing and proxy headers are the transport's)`);
  }
  return name;
}

/** A header's value from the variable it names: unset is bad usage (an empty key would be sent). */
function fromVariable(s: Pick<Sourced, 'source' | 'fromFile'>, name: string, variable: string, env: NodeJS.ProcessEnv): ExtraHeader {
  if (!VARIABLE.test(variable)) bad(s, `names ${JSON.stringify(variable)} for ${name}, which is not an environment variable's name (letters, digits, _)`);
  const value = env[variable];
  if (value === undefined || value === '') bad(s, `takes ${name} from the environment variable ${variable}, which is not set`);
  return { name, value: checkValue(s, name, value, variable), variable };
}

function checkValue(s: Pick<Sourced, 'source' | 'fromFile'>, name: string, value: string, variable?: string): string {
  if (/[\r\n\u0000]/.test(value)) bad(s, `gives ${name} a value with a line break or NUL${variable ? ` (from ${variable})` : ''}: not a valid header value`);
  return value.trim();
}

/** The extra headers: the config's, then each --header (a flag replaces a config header of the same name). */
function headersOf(in_: Settings, given: readonly string[] | undefined, env: NodeJS.ProcessEnv): ExtraHeader[] {
  const out = new Map<string, ExtraHeader>();
  const config = in_.get(undefined, undefined, 'target.headers');
  if (config) {
    if (typeof config.value !== 'object' || config.value === null || Array.isArray(config.value)) bad(config, 'must be an object of header names to values');
    for (const [n, v] of Object.entries(config.value as Record<string, unknown>)) {
      const at = { source: `${config.source}.${n}`, fromFile: config.fromFile };
      const name = headerName(at, n);
      if (typeof v === 'string') {
        if (/^env:/.test(v)) bad(at, `is the string ${JSON.stringify(v)}: in a config file a header from a variable is written { "env": "${v.slice(4)}" } (a string is sent as it is)`);
        out.set(name.toLowerCase(), { name, value: checkValue(at, name, v) });
      } else if (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { env?: unknown }).env === 'string' && Object.keys(v).length === 1) {
        out.set(name.toLowerCase(), fromVariable(at, name, (v as { env: string }).env, env));
      } else {
        bad(at, 'must be a string (the value) or { "env": "VARIABLE" } (the value from that environment variable)');
      }
    }
  }
  const seen = new Set<string>();
  // The flags, else the variable's lines (flags beat the environment, as for every setting).
  const variable = envOf('header')!;
  const lines = given?.length ? given.map((h) => ({ h, from: '--header' })) : (env[variable] ?? '').split(/\r?\n/).filter((l) => l.trim() !== '').map((h) => ({ h, from: `environment variable ${variable}:` }));
  for (const { h, from } of lines) {
    const at = { source: `${from} ${JSON.stringify(h.replace(/:\s*(?!env:)[\s\S]*$/, ': …'))}`, fromFile: false };
    const m = /^([^:]*):([\s\S]*)$/.exec(h);
    if (!m) bad(at, 'must be "Name: value" (or "Name: env:VARIABLE" for a value from an environment variable)');
    const name = headerName(at, m[1]!.trim());
    if (seen.has(name.toLowerCase())) bad(at, `gives ${name} a second time`);
    seen.add(name.toLowerCase());
    const value = m[2]!.trim();
    const variable = /^env:(.*)$/.exec(value)?.[1];
    out.set(name.toLowerCase(), variable !== undefined ? fromVariable(at, name, variable, env) : { name, value: checkValue(at, name, value) });
  }
  return [...out.values()];
}

/** The network settings, or nothing when none is set (and no proxy for the embedded mock). */
export function networkOf(in_: Settings, env: NodeJS.ProcessEnv, headerFlags: readonly string[] | undefined, o: { embedded: boolean; insecureTls: boolean }): { network?: NetworkOptions } {
  const proxies = proxiesOf(in_, env);
  const net: NetworkOptions = {
    ...(o.embedded ? {} : proxies),
    ...tlsOf(in_, env),
    ...(o.insecureTls ? { insecureTls: true } : {}),
  };
  const headers = headersOf(in_, headerFlags, env);
  const all: NetworkOptions = headers.length ? { ...net, headers } : net;
  return Object.keys(all).length ? { network: all } : {};
}
