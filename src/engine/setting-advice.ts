/**
 * Advice on the settings that reach a target, in the words of the place each came from (a flag, an
 * environment variable, a config key): what the preflight, the stop of a run and the diagnosis of the
 * finished units say to do. Shared by the three (engine/preflight.ts, engine/stop-diagnosis.ts,
 * engine/diagnose.ts), so each says it the same way.
 */
import type { Group, Operation } from '../contract/catalogue.js';
import type { SettingKey, Target } from '../core/types.js';
import { hostOf } from '../transport/client.js';

/** The flag naming the namespace of an operation's group. */
function nsFlag(op: Pick<Operation, 'ns'>): string {
  return op.ns === 'book' ? '--book-ns' : '--search-ns';
}

/**
 * How to give a setting another value, in the words of the place it came from: the flag, the
 * environment variable, or the config key in its file (the flag when it was not given).
 */
export function setAdvice(target: Pick<Target, 'sources'>, key: SettingKey, flag: string, value: string): string {
  const src = target.sources?.[key];
  if (src === undefined || src.startsWith('--')) return `pass ${flag} ${value}`;
  const env = /^environment variable (\S+)$/.exec(src);
  if (env) return `set ${env[1]} to ${value}`;
  const at = src.lastIndexOf(': ');
  return at > 0 ? `set ${src.slice(at + 2)} to ${value} in ${src.slice(0, at)}` : `set ${src} to ${value}`;
}

/** The setting keys and flags of a group's base URL and service path. */
export function groupSettings(group: Group): { url: SettingKey; urlFlag: string; path: SettingKey; pathFlag: string } {
  const g = group === 'booking' ? 'book' : group === 'transfers' ? 'transfers' : 'search';
  return {
    url: `${g}Url` as SettingKey,
    urlFlag: `--${g}-url`,
    path: `${g}Path` as SettingKey,
    pathFlag: `--${g}-path`,
  };
}

/** Where a setting came from, in words ("--book-url", "environment variable …", "config file …: target.bookUrl"). */
export function sourceOf(target: Pick<Target, 'sources'>, key: SettingKey, flag: string): string {
  return target.sources?.[key] ?? flag;
}

/** How to configure namespace `value` for an operation's group, named after where the current one came from. */
export function nsAdvice(target: Pick<Target, 'sources'>, op: Pick<Operation, 'ns'>, value: string): string {
  return setAdvice(target, op.ns === 'book' ? 'bookNs' : 'searchNs', nsFlag(op), value);
}

/** A TLS failure that is a plain-HTTP answer to a TLS handshake (OpenSSL: "wrong version number", "http request"). */
export function plainHttpPort(message: string): boolean {
  return /wrong.version.number|http.request|packet.length.too.long|unknown.protocol/i.test(message);
}

/**
 * An https target that closed the connection without a word: what a server that verifies client
 * certificates after the handshake does (Node's, for one; others send a TLS alert, which the
 * transport names itself, transport/network.ts), so the likely cause and the flag are said.
 */
export function tlsClosedAdvice(host: string, target: Pick<Target, 'network'>): string {
  const net = target.network;
  const given = net?.clientPfx
    ? `--client-pfx ${net.clientPfx}`
    : net?.clientCert
      ? `--client-cert ${net.clientCert}`
      : undefined;
  return given
    ? `${host} closed the TLS connection without an answer: it may have refused the client certificate `
        + `in ${given} (signed by a CA it does not trust, or not for client authentication)`
    : `${host} closed the TLS connection without an answer: a target that demands a client certificate `
        + `does so: pass --client-cert PEM and --client-key PEM (or --client-pfx FILE)`;
}

/** The URL settings (and where each came from) whose host is `origin`'s. */
export function urlSettingsOf(
  target: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'sources'>,
  origin: string,
): string {
  const named = (['booking', 'reference', 'transfers'] as const).flatMap((g) => {
    const { url: key, urlFlag } = groupSettings(g);
    const url = target[key as 'bookUrl' | 'searchUrl' | 'transfersUrl'];
    return url && hostOf(url) === hostOf(origin) ? [sourceOf(target, key, urlFlag)] : [];
  });
  return [...new Set(named)].join(', ') || '--book-url, --search-url, --transfers-url';
}
