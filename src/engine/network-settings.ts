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
import type { NetworkOptions } from '../core/types.js';
import { PROXY_PASSWORD_VARIABLE } from '../transport/proxy.js';
import { tlsFileProblem } from '../transport/network.js';
import { bad, VARIABLE, type SettingReader as Settings, type Sourced } from './sourced.js';
import { NETWORK_OPTIONS } from './run-settings-table.js';
import { headersOf } from './network-headers.js';
import { proxiesOf, type Given } from './network-proxy.js';

// The network settings are declared in ./run-settings-table.ts (NETWORK_SETTINGS): flags, variables, keys and help.
export { NETWORK_ENV, NETWORK_OPTIONS } from './run-settings-table.js';

/** The network flags among a command's parsed flags (a command passes them on to the run's resolution). */
export function networkFlagValues<F extends Partial<Record<keyof typeof NETWORK_OPTIONS, unknown>>>(
  f: F,
): Pick<F, keyof typeof NETWORK_OPTIONS & keyof F> {
  return Object.fromEntries(
    Object.keys(NETWORK_OPTIONS)
      .filter((k) => f[k as keyof F] !== undefined)
      .map((k) => [k, f[k as keyof F]]),
  ) as Pick<F, keyof typeof NETWORK_OPTIONS & keyof F>;
}

/**
 * The variable a proxy's password is read from when its URL names a user and no password, unless the config names
 * another.
 */
export { PROXY_PASSWORD_VARIABLE };

/** The variable the client PKCS#12's passphrase is read from, unless the config names another. */
export const PFX_PASSPHRASE_VARIABLE = 'CONFORMANCE_CLIENT_PFX_PASSPHRASE';

/** Where a setting is given: the config key alone for the library, else the flag with the key beside it. */
const say = (g: Given, flag: string, key: string) => (g.library ? key : `${flag} (or ${key})`);

/** The TLS files, each read and checked now; paths made absolute (a reproduce command works from any directory). */
function tlsOf(
  in_: Settings,
  env: NodeJS.ProcessEnv,
  g: Given,
): Pick<
  NetworkOptions,
  'caFile' | 'clientCert' | 'clientKey' | 'clientPfx' | 'pfxPassphrase' | 'pfxPassphraseVariable'
> {
  const ca = in_.text('ca-file');
  const cert = in_.text('client-cert');
  const key = in_.text('client-key');
  const pfx = in_.text('client-pfx');
  const check = (
    s: Sourced<string>,
    role: Parameters<typeof tlsFileProblem>[0],
    other?: Parameters<typeof tlsFileProblem>[2],
  ) => {
    const problem = tlsFileProblem(role, s.value, other);
    if (problem) bad(s, problem);
    return resolve(s.value);
  };
  if (pfx && (cert || key))
    bad(
      pfx,
      `and ${(cert ?? key)!.source} both give a client certificate: give either a PKCS#12 file or a PEM `
        + `certificate and key`,
    );
  if (cert && !key)
    bad(
      cert,
      `needs its private key: ${g.library ? 'give' : 'pass'} ${say(g, '--client-key PEM', 'target.clientKey')} too`,
    );
  if (key && !cert)
    bad(
      key,
      `needs its certificate: ${g.library ? 'give' : 'pass'} ${say(g, '--client-cert PEM', 'target.clientCert')} too`,
    );
  const out: ReturnType<typeof tlsOf> = {
    ...(ca ? { caFile: check(ca, 'ca') } : {}),
    ...(key ? { clientKey: check(key, 'key') } : {}),
  };
  if (cert && key) Object.assign(out, { clientCert: check(cert, 'cert', { key: key.value }) });
  if (pfx) {
    const named = in_.string(undefined, undefined, 'target.clientPfxPassphraseEnv');
    if (named && !VARIABLE.test(named.value))
      bad(named, `must name an environment variable (letters, digits, _; got ${JSON.stringify(named.value)})`);
    const variable = named?.value ?? PFX_PASSPHRASE_VARIABLE;
    const passphrase = env[variable] === '' ? undefined : env[variable];
    const problem = tlsFileProblem('pfx', pfx.value, { passphrase });
    if (problem)
      bad(
        pfx,
        `${problem}${/passphrase/.test(problem) ? ` (the passphrase is read from the environment variable ${variable}${g.library ? ' of options.env' : ''}${passphrase === undefined ? ', which is not set' : ''})` : ''}`,
      );
    Object.assign(out, {
      clientPfx: resolve(pfx.value),
      ...(passphrase !== undefined ? { pfxPassphrase: passphrase, pfxPassphraseVariable: variable } : {}),
    });
  }
  return out;
}

/** The network settings, or nothing when none is set (and no proxy for the embedded mock). */
export function networkOf(
  in_: Settings,
  env: NodeJS.ProcessEnv,
  headerFlags: readonly string[] | undefined,
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
