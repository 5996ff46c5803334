/**
 * Secrets never reach a report, a log or the console. A redactor replaces every form a secret can
 * take on the wire (raw, percent-encoded, form-encoded, XML-escaped), the forms a target may echo it
 * back in (JSON-escaped, quote references, base64) and URL user-info passwords.
 */
import { escapeText } from '../xml/escape.js';

export const REDACTED = '***';

export type Redactor = (text: string) => string;

/** Every wire form of a secret, longest first so a longer form is replaced before its parts. */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    escapeText(secret),
    escapeText(secret).replace(/"/g, '&quot;'),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The wire forms plus the spellings a target may echo a secret back in (JSON-escaped, other quote
 * references, base64): a hostile or careless target must not get the password into a report
 * through its response, and the report writers' guard refuses to write any of these.
 */
export function echoedForms(secret: string): string[] {
  if (!secret) return [];
  const xml = escapeText(secret);
  const forms = new Set([
    ...secretForms(secret),
    JSON.stringify(secret).slice(1, -1),
    xml.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
    xml.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    xml.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
    Buffer.from(secret, 'utf8').toString('base64'),
    Buffer.from(secret, 'utf8').toString('base64url'),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

// scheme://user:password@ — the password runs to the last "@" before the path (it may hold "@").
const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s]*@/gi;

/** A function that redacts the given secrets (and any URL user-info password) from text. */
export function makeRedactor(secrets: readonly string[], replacement = REDACTED): Redactor {
  const forms = [...new Set(secrets.flatMap(echoedForms))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text.replace(USERINFO_RE, `$1${replacement}@`);
    for (const f of forms) if (f) out = out.split(f).join(replacement);
    return out;
  };
}
