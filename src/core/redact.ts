/**
 * Secrets never reach a report, a log or the console. A redactor replaces every form a secret can
 * take on the wire (raw, percent-encoded, form-encoded, XML-escaped) and URL user-info passwords.
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

const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@/\s]*@/gi;

/** A function that redacts the given secrets (and any URL user-info password) from text. */
export function makeRedactor(secrets: readonly string[], replacement = REDACTED): Redactor {
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text.replace(USERINFO_RE, `$1${replacement}@`);
    for (const f of forms) if (f) out = out.split(f).join(replacement);
    return out;
  };
}
