/**
 * What the HTML and Markdown headers say of who called and how the target was reached (issue 41,
 * item 5): the second account's user (never its password) and the network path (report.target
 * .networkPath: the proxy's address, the CA file, the client certificate's subject, the extra
 * headers' names). One list of labelled plain-text parts, each page formatting them its own way.
 */
import type { RunReport } from '../core/types.js';

/** A labelled part: the label, and the text with the values a page shows as code. */
export interface HeaderPart {
  readonly label: string;
  /** Plain text around the values. */
  readonly text: string;
  /** The values (URLs, paths, names), in order of their `{}` places in `text`. */
  readonly values: readonly string[];
}

/** The second account: its user, or that none was given (authorization across accounts not tested). */
export function secondAccountPart(report: RunReport): HeaderPart {
  const user = report.target.otherUser;
  return user !== undefined
    ? { label: 'Second account', text: '{} (authorization across accounts)', values: [user] }
    : { label: 'Second account', text: 'none given: authorization across accounts not tested', values: [] };
}

/**
 * The network path's parts, in the order a request meets them; none when the run went direct with no network setting.
 */
export function networkParts(report: RunReport): HeaderPart[] {
  const p = report.target.networkPath;
  if (!p) return [];
  const out: HeaderPart[] = [];
  const bypass = p.bypassed?.length
    ? {
        text: ` (direct for ${p.bypassed.map(() => '{}').join(', ')}${p.noProxy ? ', by NO_PROXY {}' : ''})`,
        values: [...p.bypassed, ...(p.noProxy ? [p.noProxy] : [])],
      }
    : { text: '', values: [] };
  if (p.proxies?.length)
    out.push({
      label: 'Proxy',
      text: `${p.proxies.map(() => '{}').join(', ')}${bypass.text}`,
      values: [...p.proxies, ...bypass.values],
    });
  else if (p.bypassed?.length) out.push({ label: 'Proxy', text: `none taken${bypass.text}`, values: bypass.values });
  if (p.caFile) out.push({ label: 'CA file', text: '{}', values: [p.caFile] });
  if (p.clientCertificate) {
    const c = p.clientCertificate;
    out.push({
      label: 'Client certificate',
      text: c.subject !== undefined ? '{} ({})' : '{} (its subject could not be read)',
      values: c.subject !== undefined ? [c.subject, c.file] : [c.file],
    });
  }
  if (p.headers?.length)
    out.push({
      label: 'Extra headers',
      text: `${p.headers.map(() => '{}').join(', ')} (values not shown)`,
      values: [...p.headers],
    });
  if (p.insecureTls) out.push({ label: 'TLS verification', text: 'off (--insecure-tls)', values: [] });
  return out;
}

/** A part's text with each value formatted by `value` and the text around by `text`. */
export function formatPart(part: HeaderPart, text: (s: string) => string, value: (s: string) => string): string {
  const pieces = part.text.split('{}');
  return pieces.map((piece, i) => `${text(piece)}${i < part.values.length ? value(part.values[i]!) : ''}`).join('');
}
