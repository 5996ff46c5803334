/**
 * The network settings of a run (docs/real-service.md, "Proxies, private CAs, client certificates,
 * headers"), each checked and named by its source as the other settings are (./settings.ts):
 *
 * - the proxy: `--proxy URL`, then CONFORMANCE_PROXY, then `target.proxy`, each for both schemes;
 *   else http_proxy / HTTP_PROXY for http:// targets and https_proxy / HTTPS_PROXY for https://
 *   ones (lower case first, as undici and curl read them; an https target never falls back to the
 *   http proxy, as with curl); `target.noProxy`, else no_proxy / NO_PROXY, lists the hosts that
 *   bypass it. The embedded mock (loopback) is never proxied. A proxy URL that names a user and no
 *   password takes its password from CONFORMANCE_PROXY_PASSWORD (or the variable
 *   `target.proxyPasswordEnv` names; the library may give `target.proxyPassword` itself): a config
 *   file never holds one (files get committed), and a flag shows in process lists;
 * - TLS: `--ca-file`, `--client-cert` with `--client-key`, or `--client-pfx` whose passphrase is
 *   read from CONFORMANCE_CLIENT_PFX_PASSPHRASE (or the variable `target.clientPfxPassphraseEnv`
 *   names), never from a flag; each file read and checked now (exit 2 naming flag and file);
 * - headers: `--header 'Name: value'` (repeatable) and `target.headers`; `--header 'Name: env:VAR'`
 *   and `{ "Name": { "env": "VAR" } }` take the value from the variable VAR, a secret.
 */
import { resolve } from 'node:path';
import { ConfigError, UsageError } from '../core/errors.js';
import type { ExtraHeader, NetworkOptions, ProxySetting } from '../core/types.js';
import { PROXY_PASSWORD_VARIABLE, proxyPassword } from '../transport/proxy.js';
import { tlsFileProblem } from '../transport/network.js';
import type { SettingReader as Settings, Sourced } from './sourced.js';
import { NETWORK_ENV, NETWORK_OPTIONS } from './run-settings-table.js';

// The network settings are declared in ./run-settings-table.ts (NETWORK_SETTINGS): flags, variables, keys and help.
export { NETWORK_ENV, NETWORK_OPTIONS } from './run-settings-table.js';

/** The network flags among a command's parsed flags (a command passes them on to the run's resolution). */
export function networkFlags<F extends Partial<Record<keyof typeof NETWORK_OPTIONS, unknown>>>(f: F): Pick<F, keyof typeof NETWORK_OPTIONS & keyof F> {
  return Object.fromEntries(Object.keys(NETWORK_OPTIONS).filter((k) => f[k as keyof F] !== undefined).map((k) => [k, f[k as keyof F]])) as Pick<F, keyof typeof NETWORK_OPTIONS & keyof F>;
}

/** The variable a proxy's password is read from when its URL names a user and no password, unless the config names another. */
export { PROXY_PASSWORD_VARIABLE };

/** The variable the client PKCS#12's passphrase is read from, unless the config names another. */
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

/** How the settings were given: the library's object (its messages name its keys, and no file is involved) or a command's flags, variables and file. */
interface Given {
  readonly library: boolean;
  /** The library's target.proxyPassword (a program holds it in memory, as target.password). */
  readonly proxyPassword?: Sourced<string>;
}

/** Where a setting is given: the config key alone for the library, else the flag with the key beside it. */
const say = (g: Given, flag: string, key: string) => (g.library ? key : `${flag} (or ${key})`);

/**
 * A proxy URL, checked: http:// or https://, a host, no query; credentials refused in a file (files
 * get committed), not in the library's settings (a program's memory, as target.password).
 */
function proxyUrl(s: Sourced<string>, g: Given): string {
  let u: URL;
  try {
    u = new URL(s.value);
  } catch {
    return bad(s, `is not a valid proxy URL: ${JSON.stringify(hidden(s.value))} (e.g. http://proxy.example.com:3128)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad(s, `must be an http:// or https:// proxy URL (got ${u.protocol} in ${JSON.stringify(hidden(s.value))})`);
  if (!u.hostname) bad(s, `names no proxy host: ${JSON.stringify(hidden(s.value))}`);
  if (u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) bad(s, `must be a proxy's address only, without path or query: ${JSON.stringify(hidden(s.value))}`);
  if (s.fromFile && !g.library && proxyPassword(s.value) !== undefined) {
    bad(s, `holds a password: not accepted in a file (files get committed); name the user only (http://user@host:port) and put the password in ${PROXY_PASSWORD_VARIABLE} (or the variable target.proxyPasswordEnv names), or put the whole URL in CONFORMANCE_PROXY or HTTPS_PROXY`);
  }
  return s.value;
}

/** The proxy's password given apart from its URL: the library's target.proxyPassword, else the variable target.proxyPasswordEnv names, else CONFORMANCE_PROXY_PASSWORD. */
interface ProxyPassword {
  readonly value?: string;
  /** The variable it came from (a re-run command names it); undefined for the library's target.proxyPassword. */
  readonly variable?: string;
  /** target.proxyPasswordEnv, when given: a variable named there and not set is an error where a proxy needs it. */
  readonly named?: Sourced<string>;
}

function proxyPasswordOf(in_: Settings, env: NodeJS.ProcessEnv, g: Given): ProxyPassword {
  const named = in_.string(undefined, undefined, 'target.proxyPasswordEnv');
  if (named && !VARIABLE.test(named.value)) bad(named, `must name an environment variable (letters, digits, _; got ${JSON.stringify(named.value)})`);
  if (g.proxyPassword) return { value: g.proxyPassword.value, ...(named ? { named } : {}) };
  const variable = named?.value ?? PROXY_PASSWORD_VARIABLE;
  const value = env[variable] === '' ? undefined : env[variable];
  return { ...(value !== undefined ? { value, variable } : {}), ...(named ? { named } : {}) };
}

/**
 * A proxy whose URL names a user and no password, with the password given apart (in the URL, so the
 * transport sends it and every redactor finds it: transport/proxy.ts networkSecrets); a URL with its
 * own password keeps it. A variable named for it and not set is an error naming both settings.
 */
function withPassword(proxy: ProxySetting, source: string, pw: ProxyPassword, g: Given): ProxySetting {
  const u = new URL(proxy.url);
  if (!u.username || u.password) return proxy;
  if (pw.value === undefined) {
    if (pw.named) bad(pw.named, `names ${pw.named.value} for the proxy's password, which is not set${g.library ? ' in options.env' : ''} (the proxy of ${source} names the user ${decodeURIComponent(u.username)} and no password)`);
    return proxy;
  }
  u.password = encodeURIComponent(pw.value);
  return { ...proxy, url: u.href.replace(/\/$/, ''), ...(pw.variable ? { passwordVariable: pw.variable } : {}) };
}

/** The proxies: the explicit one for both schemes, else the environment's per scheme. */
function proxiesOf(in_: Settings, env: NodeJS.ProcessEnv, g: Given): Pick<NetworkOptions, 'httpProxy' | 'httpsProxy' | 'noProxy'> {
  const explicit = in_.text('proxy');
  const pw = proxyPasswordOf(in_, env, g);
  const fromEnv = (names: readonly string[]): ProxySetting | undefined => {
    const name = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (name === undefined) return undefined;
    const source = `environment variable ${name}`;
    return withPassword({ url: proxyUrl({ value: env[name]!, source, fromFile: false }, g), variable: name }, source, pw, g);
  };
  const noProxySetting = in_.string(undefined, undefined, 'target.noProxy');
  const noProxy = noProxySetting?.value ?? [env.no_proxy, env.NO_PROXY].find((v) => v !== undefined && v !== '');
  const out = (() => {
    if (explicit) {
      const proxy = withPassword({ url: proxyUrl(explicit, g), ...(explicit.source === 'environment variable CONFORMANCE_PROXY' ? { variable: 'CONFORMANCE_PROXY' } : {}) }, explicit.source, pw, g);
      return { httpProxy: proxy, httpsProxy: proxy };
    }
    const httpProxy = fromEnv(['http_proxy', 'HTTP_PROXY']);
    const httpsProxy = fromEnv(['https_proxy', 'HTTPS_PROXY']);
    return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}) };
  })();
  // The library's password with no proxy user to go with it would be dropped without a word.
  const users = [out.httpProxy, out.httpsProxy].some((p) => p && new URL(p.url).username);
  if (g.proxyPassword && !users) bad(g.proxyPassword, `is given but no proxy names a user to go with it: give target.proxy as http://user@host:port${explicit ? ` (${explicit.source} names none)` : ''}`);
  if (!out.httpProxy && !out.httpsProxy) return {};
  return { ...out, ...(noProxy ? { noProxy } : {}) };
}

/** The TLS files, each read and checked now; paths made absolute (a reproduce command works from any directory). */
function tlsOf(in_: Settings, env: NodeJS.ProcessEnv, g: Given): Pick<NetworkOptions, 'caFile' | 'clientCert' | 'clientKey' | 'clientPfx' | 'pfxPassphrase' | 'pfxPassphraseVariable'> {
  const ca = in_.text('ca-file');
  const cert = in_.text('client-cert');
  const key = in_.text('client-key');
  const pfx = in_.text('client-pfx');
  const check = (s: Sourced<string>, role: Parameters<typeof tlsFileProblem>[0], other?: Parameters<typeof tlsFileProblem>[2]) => {
    const problem = tlsFileProblem(role, s.value, other);
    if (problem) bad(s, problem);
    return resolve(s.value);
  };
  if (pfx && (cert || key)) bad(pfx, `and ${(cert ?? key)!.source} both give a client certificate: give either a PKCS#12 file or a PEM certificate and key`);
  if (cert && !key) bad(cert, `needs its private key: ${g.library ? 'give' : 'pass'} ${say(g, '--client-key PEM', 'target.clientKey')} too`);
  if (key && !cert) bad(key, `needs its certificate: ${g.library ? 'give' : 'pass'} ${say(g, '--client-cert PEM', 'target.clientCert')} too`);
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
    if (problem) bad(pfx, `${problem}${/passphrase/.test(problem) ? ` (the passphrase is read from the environment variable ${variable}${g.library ? ' of options.env' : ''}${passphrase === undefined ? ', which is not set' : ''})` : ''}`);
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
  const variable = NETWORK_ENV.header;
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
export function networkOf(
  in_: Settings, env: NodeJS.ProcessEnv, headerFlags: readonly string[] | undefined,
  o: { embedded: boolean; insecureTls: boolean } & Partial<Given>,
): { network?: NetworkOptions } {
  const g: Given = { library: o.library ?? false, ...(o.proxyPassword ? { proxyPassword: o.proxyPassword } : {}) };
  const proxies = proxiesOf(in_, env, g);
  const net: NetworkOptions = {
    ...(o.embedded ? {} : proxies),
    ...tlsOf(in_, env, g),
    ...(o.insecureTls ? { insecureTls: true } : {}),
  };
  const headers = headersOf(in_, headerFlags, env);
  const all: NetworkOptions = headers.length ? { ...net, headers } : net;
  return Object.keys(all).length ? { network: all } : {};
}
