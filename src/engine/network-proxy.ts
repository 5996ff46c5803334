/**
 * The proxy of the network settings (./network-settings.ts): `--proxy URL`, then CONFORMANCE_PROXY,
 * then `target.proxy`, each for both schemes; else the environment's per scheme; `target.noProxy`,
 * else no_proxy / NO_PROXY; a URL naming a user and no password takes its password from the variable
 * (or the library's target.proxyPassword). Each checked and named by its source.
 */
import type { NetworkOptions, ProxySetting } from '../core/types.js';
import { PROXY_PASSWORD_VARIABLE, proxyPassword } from '../transport/proxy.js';
import { bad, VARIABLE, type SettingReader as Settings, type Sourced } from './sourced.js';

/** A URL with everything up to its last "@" hidden (credentials may hold any character). */
function hidden(v: string): string {
  return v.replace(/\/\/.*@/s, '//***@');
}

/**
 * How the settings were given: the library's object (its messages name its keys, and no file is involved) or a
 * command's flags, variables and file.
 */
export interface Given {
  readonly library: boolean;
  /** The library's target.proxyPassword (a program holds it in memory, as target.password). */
  readonly proxyPassword?: Sourced<string>;
}

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
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    bad(s, `must be an http:// or https:// proxy URL (got ${u.protocol} in ${JSON.stringify(hidden(s.value))})`);
  if (!u.hostname) bad(s, `names no proxy host: ${JSON.stringify(hidden(s.value))}`);
  if (u.search || u.hash || (u.pathname !== '/' && u.pathname !== ''))
    bad(s, `must be a proxy's address only, without path or query: ${JSON.stringify(hidden(s.value))}`);
  if (s.fromFile && !g.library && proxyPassword(s.value) !== undefined) {
    bad(
      s,
      `holds a password: not accepted in a file (files get committed); name the user only `
        + `(http://user@host:port) and put the password in ${PROXY_PASSWORD_VARIABLE} (or the variable `
        + `target.proxyPasswordEnv names), or put the whole URL in CONFORMANCE_PROXY or HTTPS_PROXY`,
    );
  }
  return s.value;
}

/**
 * The proxy's password given apart from its URL: the library's target.proxyPassword, else the variable
 * target.proxyPasswordEnv names, else CONFORMANCE_PROXY_PASSWORD.
 */
interface ProxyPassword {
  readonly value?: string;
  /** The variable it came from (a re-run command names it); undefined for the library's target.proxyPassword. */
  readonly variable?: string;
  /** target.proxyPasswordEnv, when given: a variable named there and not set is an error where a proxy needs it. */
  readonly named?: Sourced<string>;
}

function proxyPasswordOf(in_: Settings, env: NodeJS.ProcessEnv, g: Given): ProxyPassword {
  const named = in_.string(undefined, undefined, 'target.proxyPasswordEnv');
  if (named && !VARIABLE.test(named.value))
    bad(named, `must name an environment variable (letters, digits, _; got ${JSON.stringify(named.value)})`);
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
    if (pw.named)
      bad(
        pw.named,
        `names ${pw.named.value} for the proxy's password, which is not `
          + `set${g.library ? ' in options.env' : ''} (the proxy of ${source} names the `
          + `user ${decodeURIComponent(u.username)} and no password)`,
      );
    return proxy;
  }
  u.password = encodeURIComponent(pw.value);
  return { ...proxy, url: u.href.replace(/\/$/, ''), ...(pw.variable ? { passwordVariable: pw.variable } : {}) };
}

/** The proxies: the explicit one for both schemes, else the environment's per scheme. */
export function proxiesOf(
  in_: Settings,
  env: NodeJS.ProcessEnv,
  g: Given,
): Pick<NetworkOptions, 'httpProxy' | 'httpsProxy' | 'noProxy'> {
  const explicit = in_.text('proxy');
  const pw = proxyPasswordOf(in_, env, g);
  const fromEnv = (names: readonly string[]): ProxySetting | undefined => {
    const name = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (name === undefined) return undefined;
    const source = `environment variable ${name}`;
    return withPassword(
      { url: proxyUrl({ value: env[name]!, source, fromFile: false }, g), variable: name },
      source,
      pw,
      g,
    );
  };
  const noProxySetting = in_.string(undefined, undefined, 'target.noProxy');
  const noProxy = noProxySetting?.value ?? [env.no_proxy, env.NO_PROXY].find((v) => v !== undefined && v !== '');
  const out = (() => {
    if (explicit) {
      const proxy = withPassword(
        {
          url: proxyUrl(explicit, g),
          ...(explicit.source === 'environment variable CONFORMANCE_PROXY' ? { variable: 'CONFORMANCE_PROXY' } : {}),
        },
        explicit.source,
        pw,
        g,
      );
      return { httpProxy: proxy, httpsProxy: proxy };
    }
    const httpProxy = fromEnv(['http_proxy', 'HTTP_PROXY']);
    const httpsProxy = fromEnv(['https_proxy', 'HTTPS_PROXY']);
    return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}) };
  })();
  // The library's password with no proxy user to go with it would be dropped without a word.
  const users = [out.httpProxy, out.httpsProxy].some((p) => p && new URL(p.url).username);
  if (g.proxyPassword && !users)
    bad(
      g.proxyPassword,
      `is given but no proxy names a user to go with it: give target.proxy as `
        + `http://user@host:port${explicit ? ` (${explicit.source} names none)` : ''}`,
    );
  if (!out.httpProxy && !out.httpsProxy) return {};
  return { ...out, ...(noProxy ? { noProxy } : {}) };
}
