/**
 * A curl command that reproduces one request, with the password replaced by the shell variable it
 * came from (CONFORMANCE_PASSWORD, or the config's target.passwordEnv), guarded so that a command
 * pasted without it set stops with "set VAR to the password" instead of sending an empty one:
 * GET/POST parameters go through --data-urlencode (so any password encodes right), SOAP bodies
 * through an unquoted here-document that expands the variable, XML-escaped by the command first
 * where the body held the password escaped (a password with "&" or "<"). The password in other
 * letter case (the password-case variant) is made by the command from the variable with tr, when the
 * password is ASCII (tr swaps exactly the letters JavaScript does there); otherwise it stays "***".
 * Its proper prefix (the login-password-prefix variant) is `${VAR%?}`, the variable without its last
 * character.
 */
import type { HttpRequest, NetworkOptions, ProxySetting, RerunVariable } from '../core/types.js';
import { secretForms, swapCase } from '../core/redact.js';
import { PROXY_PASSWORD_VARIABLE, proxyFor, proxyPassword } from './proxy.js';

export const PASSWORD_VARIABLE = 'CONFORMANCE_PASSWORD';
/**
 * The variable the second account's password is read from (--other-user; issue 33), unless target.otherPasswordEnv
 * names another.
 */
export const OTHER_PASSWORD_VARIABLE = 'CONFORMANCE_OTHER_PASSWORD';

/** `${VAR:?set VAR to the password}`: the variable, or the shell stops the command saying what to set. */
export function guardedVariable(variable: string): string {
  return `\${${variable}:?set ${variable} to the password}`;
}

/**
 * Sets SOURCE_XML to $SOURCE escaped for XML text and attribute values: & < > " ' as entities and CR
 * as &#13; (a raw CR would reach the service as LF: XML normalises line ends). Any byte survives:
 * sed works line by line, so LF stays as it is, and a '.' appended then taken off keeps trailing
 * line breaks that $(...) would strip.
 */
function xmlEscape(source: string): string {
  const xml = `${source}_XML`;
  return (
    `${xml}=$(printf '%s.' "$${source}" | sed -e 's/&/\\&amp;/g' -e 's/</\\&lt;/g' -e 's/>/\\&gt;/g' -e `
    + `'s/"/\\&quot;/g' -e "s/'/\\&apos;/g" `
    + `-e "s/$(printf '\\r')/\\&#13;/g") && ${xml}=\${${xml}%.}`
  );
}

/** Sets SOURCE_SWAPPED to $SOURCE with the case of every ASCII letter swapped (the same '.' guard). */
function caseSwap(source: string): string {
  const out = `${source}_SWAPPED`;
  return `${out}=$(printf '%s.' "$${source}" | LC_ALL=C tr a-zA-Z A-Za-z) && ${out}=\${${out}%.}`;
}

/** `"${VAR:?set VAR to WHAT}"` (double-quoted): the variable's value, or the shell stops saying what to set. */
function required(variable: string, what: string, prefix = ''): string {
  return `"${prefix}\${${variable}:?set ${variable} to ${what}}"`;
}

/** The variable a proxy URL with credentials is read from when it did not come from one (--proxy, like --password). */
export const PROXY_VARIABLE = 'CONFORMANCE_PROXY';

/**
 * curl's options for the network the run went through (docs/real-service.md): the proxy this URL
 * took (or --noproxy when it bypassed one), the CA file, the client certificate, -k, and the extra
 * headers. Secrets are named by their variables, never written: a proxy URL with credentials, the
 * PKCS#12 passphrase, a header from a variable.
 */
export function curlNetworkArgs(url: string, net: NetworkOptions | undefined): string[] {
  if (!net) return [];
  const out: string[] = [];
  const proxy = proxyFor(url, net);
  if (proxy) {
    out.push(
      '--proxy',
      proxyPassword(proxy.url) !== undefined
        ? required(proxy.variable ?? PROXY_VARIABLE, 'the proxy URL')
        : shellQuote(proxy.url),
    );
  } else if (net.httpProxy || net.httpsProxy) {
    // The run bypassed the proxy (NO_PROXY): so does the command, whatever curl's environment says.
    out.push('--noproxy', shellQuote('*'));
  }
  if (net.insecureTls) out.push('-k');
  if (net.caFile) out.push('--cacert', shellQuote(net.caFile));
  if (net.clientPfx) {
    out.push('--cert-type', 'P12', '--cert', shellQuote(net.clientPfx));
    if (net.pfxPassphrase !== undefined)
      out.push('--pass', required(net.pfxPassphraseVariable ?? 'CONFORMANCE_CLIENT_PFX_PASSPHRASE', 'the passphrase'));
  } else if (net.clientCert) {
    out.push('--cert', shellQuote(net.clientCert));
    if (net.clientKey) out.push('--key', shellQuote(net.clientKey));
  }
  for (const h of net.headers ?? []) {
    out.push(
      '-H',
      h.variable ? required(h.variable, `the ${h.name} header`, `${h.name}: `) : shellQuote(`${h.name}: ${h.value}`),
    );
  }
  return out;
}

/**
 * Whether the proxies are the explicit one (--proxy, CONFORMANCE_PROXY, target.proxy: the same for both schemes), not
 * the environment's per scheme.
 */
function explicitProxy(net: NetworkOptions): ProxySetting | undefined {
  const p = net.httpsProxy ?? net.httpProxy;
  const explicit =
    p && (p.variable === undefined || p.variable === PROXY_VARIABLE) && net.httpProxy?.url === net.httpsProxy?.url;
  return explicit ? p : undefined;
}

/**
 * The flags of `conformance run` that give a re-run the same network (the report keeps them; its
 * re-run commands add them): TLS files, --insecure-tls, each header (one from a variable as
 * `env:VAR`), and the explicit proxy (--proxy, CONFORMANCE_PROXY, target.proxy) when it holds no
 * password. A proxy with a password, and the environment's proxies and NO_PROXY, travel as the
 * variables of networkVariables, never as a value.
 */
export function networkFlags(net: NetworkOptions | undefined): string[] {
  if (!net) return [];
  const out: string[] = [];
  const proxy = explicitProxy(net);
  if (proxy?.passwordVariable) out.push('--proxy', withoutPassword(proxy.url));
  else if (proxy && proxyPassword(proxy.url) === undefined) out.push('--proxy', proxy.url);
  if (net.insecureTls) out.push('--insecure-tls');
  if (net.caFile) out.push('--ca-file', net.caFile);
  if (net.clientPfx) out.push('--client-pfx', net.clientPfx);
  else if (net.clientCert && net.clientKey) out.push('--client-cert', net.clientCert, '--client-key', net.clientKey);
  for (const h of net.headers ?? []) out.push('--header', `${h.name}: ${h.variable ? `env:${h.variable}` : h.value}`);
  return out;
}

/**
 * The environment variables a re-run command sets before `npx conformance run` so that it takes the
 * run's network (src/report/rerun.ts, RerunBasis.variables), the flags above aside:
 *
 * - a proxy with a password, by the variable holding the whole URL: the one it came from (HTTPS_PROXY,
 *   https_proxy, HTTP_PROXY, http_proxy, CONFORMANCE_PROXY), and CONFORMANCE_PROXY for one given as
 *   --proxy (read there for both schemes, as --proxy is); `required`: the command stops, naming it,
 *   when it is not set, and never holds its value;
 * - a proxy of the environment without a password, by its value (HTTPS_PROXY=http://proxy:3128);
 * - the hosts that bypassed a proxy, as no_proxy (read before NO_PROXY) by its value;
 * - the client PKCS#12's passphrase and each header taken from a variable, `required` too.
 *
 * - a proxy whose URL names its user and whose password came from a variable of its own
 *   (ProxySetting.passwordVariable: CONFORMANCE_PROXY_PASSWORD, or the one target.proxyPasswordEnv
 *   names), by its URL without the password (the flag, or its variable by value) and
 *   CONFORMANCE_PROXY_PASSWORD, `required`, taken from that variable when it is another one.
 */
export function networkVariables(net: NetworkOptions | undefined): RerunVariable[] {
  if (!net) return [];
  const out: RerunVariable[] = [];
  const add = (v: RerunVariable) => {
    if (!out.some((x) => x.name === v.name)) out.push(v);
  };
  const explicit = explicitProxy(net);
  const proxies = explicit
    ? [{ ...explicit, variable: explicit.variable ?? PROXY_VARIABLE }]
    : [net.httpsProxy, net.httpProxy].filter((p): p is ProxySetting => p !== undefined);
  for (const p of proxies) {
    if (p.passwordVariable) {
      if (!explicit && p.variable) add({ name: p.variable, value: withoutPassword(p.url) });
      add({
        name: PROXY_PASSWORD_VARIABLE,
        required: "the proxy's password",
        ...(p.passwordVariable !== PROXY_PASSWORD_VARIABLE ? { from: p.passwordVariable } : {}),
      });
    } else if (proxyPassword(p.url) !== undefined)
      add({ name: p.variable ?? PROXY_VARIABLE, required: 'the proxy URL with its credentials' });
    else if (!explicit && p.variable) add({ name: p.variable, value: p.url });
  }
  if (proxies.length && net.noProxy) add({ name: 'no_proxy', value: net.noProxy });
  if (net.clientPfx && net.pfxPassphraseVariable)
    add({ name: net.pfxPassphraseVariable, required: 'the client PKCS#12 passphrase' });
  for (const h of net.headers ?? []) if (h.variable) add({ name: h.variable, required: `the ${h.name} header` });
  return out;
}

/** A proxy URL without its password (its user kept): what a re-run names beside the password's variable. */
function withoutPassword(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.href.replace(/\/$/, '');
}

/** Quote for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-+=/.:,@%]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Text inside a double-quoted shell word: \\ " $ ` escaped. */
const inDoubleQuotes = (s: string): string => s.replace(/[\\"$`]/g, (c) => `\\${c}`);

/**
 * A secret the command makes from the variable: what it stands for, the variable holding it, and the step that sets it
 * (none: the password's own).
 */
interface Stand {
  readonly value: string;
  readonly variable: string;
  readonly step?: string;
  /**
   * Its wire forms (secretForms) as a here-document writes them, each with whether it is XML-escaped (it stands for the
   * secret as XML text: the command escapes the variable the same way).
   */
  readonly forms: readonly { readonly hereDoc: string; readonly xml: boolean }[];
}

/** Text inside an unquoted here-document: \\ $ ` escaped. */
const hereDoc = (t: string): string => t.replace(/[\\$`]/g, (c) => `\\${c}`);

/**
 * The secrets the command makes from the variable: the password, its letter case swapped (ASCII only: tr swaps exactly
 * the letters JavaScript does there), its prefix. The last password's are kept: every command of a run asks for the
 * same, a function of the password and the variable alone.
 */
let lastStands: { readonly password: string; readonly variable: string; readonly stands: readonly Stand[] } | undefined;
function standsOf(password: string, variable: string): readonly Stand[] {
  if (lastStands?.password === password && lastStands.variable === variable) return lastStands.stands;
  const stand = (value: string, v: string, step?: string): Stand => ({
    value,
    variable: v,
    ...(step !== undefined ? { step } : {}),
    forms: secretForms(value).map((f) => ({ hereDoc: hereDoc(f), xml: f !== value && f.includes('&') })),
  });
  const swapped = password && /^[\u0000-\u007f]*$/.test(password) ? swapCase(password) : '';
  const stands: Stand[] = password ? [stand(password, variable)] : [];
  if (swapped && swapped !== password) stands.push(stand(swapped, `${variable}_SWAPPED`, caseSwap(variable)));
  // The password without its last character (the login-password-prefix variant): the shell's ${VAR%?}.
  const prefix = [...password].slice(0, -1).join('');
  if (prefix.length > 3 && prefix !== swapped)
    stands.push(stand(prefix, `${variable}_PREFIX`, `${variable}_PREFIX=\${${variable}%?}`));
  lastStands = { password, variable, stands };
  return stands;
}

/**
 * The command; `password` is the secret to replace (empty: nothing to replace), read from `variable`;
 * `net`: the proxy, TLS files and extra headers the run used (curlNetworkArgs).
 */
export function curlCommand(
  req: HttpRequest,
  password: string,
  variable: string = PASSWORD_VARIABLE,
  net?: NetworkOptions,
): string {
  const parts = ['curl', '-sS', '-i', ...curlNetworkArgs(req.url, net)];
  const url = new URL(req.url);
  // The transport never sends URL user-info (undici drops it): neither does the command, so a
  // password written into a base URL cannot reach a report through it.
  url.username = '';
  url.password = '';
  const stands = standsOf(password, variable);
  /**
   * The steps before curl: the guard, then the variables the command uses (chained with &&: unset, nothing is sent).
   */
  const steps = new Set<string>();
  const use = (stand: Stand, xml: boolean): string => {
    if (stand.step) steps.add(stand.step);
    if (xml) steps.add(xmlEscape(stand.variable));
    return xml ? `\${${stand.variable}_XML}` : `\${${stand.variable}}`;
  };
  const finish = () =>
    (steps.size ? `: "${guardedVariable(variable)}" && ${[...steps].join(' && ')} && ` : '') + parts.join(' ');
  const pairs = (entries: Iterable<[string, string]>) => {
    for (const [k, v] of entries) {
      const stand = stands.find((x) => x.value === v);
      // The password with something around it (the login variants: characters added, spaces): the variable in its
      // place.
      const within = stand === undefined && password && v.includes(password) ? v.split(password) : [];
      if (within.length > 1)
        parts.push('--data-urlencode', `"${k}=${within.map(inDoubleQuotes).join(guardedVariable(variable))}"`);
      else if (stand === undefined) parts.push('--data-urlencode', shellQuote(`${k}=${v}`));
      else if (stand.variable === variable) parts.push('--data-urlencode', `"${k}=${guardedVariable(variable)}"`);
      else parts.push('--data-urlencode', `"${k}=${use(stand, false)}"`);
    }
  };
  const contentType = req.headers['content-type'] ?? '';
  if (req.method === 'GET') {
    const query = [...url.searchParams];
    url.search = '';
    if (query.length) parts.push('-G');
    parts.push(shellQuote(url.toString()));
    pairs(query);
    return finish();
  }
  parts.push('-X', 'POST', shellQuote(url.toString()));
  for (const [k, v] of Object.entries(req.headers)) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    pairs(new URLSearchParams(req.body ?? ''));
    return finish();
  }
  let body = hereDoc(req.body ?? '');
  for (const stand of stands) {
    for (const f of stand.forms) {
      if (!body.includes(f.hereDoc)) continue;
      body = body
        .split(f.hereDoc)
        .join(stand.variable === variable && !f.xml ? guardedVariable(variable) : use(stand, f.xml));
    }
  }
  parts.push('--data-binary', '@-', `<<EOF\n${body}\nEOF`);
  return finish();
}
