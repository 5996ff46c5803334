/**
 * Which proxy a URL goes through (HTTPS_PROXY / HTTP_PROXY / NO_PROXY as undici and curl read them)
 * and the secrets the network options hold: plain functions, no undici, so that the plan and the
 * reproduce commands can ask without loading the transport.
 */
import type { NetworkOptions, ProxySetting } from '../core/types.js';

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Whether NO_PROXY (`noProxy`) lets `url` bypass the proxy: the rules of undici's EnvHttpProxyAgent (and curl's, but
 * for CIDR).
 */
export function bypassesProxy(url: string, noProxy: string | undefined): boolean {
  const entries = (noProxy ?? '').split(/[,\s]+/).filter(Boolean);
  if (entries.length === 0) return false;
  if (entries.includes('*')) return true;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(u.port, 10) || DEFAULT_PORTS[u.protocol] || 0;
  return entries.some((entry) => {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) return false;
    return host === name || host.endsWith(`.${name}`);
  });
}

/** The proxy a request to `url` goes through, if any. */
export function proxyFor(url: string, net: NetworkOptions | undefined): ProxySetting | undefined {
  if (!net) return undefined;
  const proxy = url.startsWith('https:') ? net.httpsProxy : net.httpProxy;
  return proxy && !bypassesProxy(url, net.noProxy) ? proxy : undefined;
}

/** A proxy URL's password (decoded), if it has one: a secret. */
export function proxyPassword(url: string): string | undefined {
  try {
    const p = new URL(url).password;
    return p ? decodeURIComponent(p) : undefined;
  } catch {
    return undefined;
  }
}

/** Every secret the network options hold: proxy passwords, the PKCS#12 passphrase, headers from variables. */
export function networkSecrets(net: NetworkOptions | undefined): string[] {
  if (!net) return [];
  return [
    ...[net.httpProxy, net.httpsProxy].flatMap((p) => (p ? [proxyPassword(p.url)] : [])),
    net.pfxPassphrase,
    ...(net.headers ?? []).filter((h) => h.variable !== undefined).map((h) => h.value),
  ].filter((s): s is string => s !== undefined && s !== '');
}

/**
 * The variable a proxy's password comes from when its URL names only the user (engine/network-settings.ts), and a
 * re-run command sets.
 */
export const PROXY_PASSWORD_VARIABLE = 'CONFORMANCE_PROXY_PASSWORD';
