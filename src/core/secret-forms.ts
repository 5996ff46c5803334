/**
 * The spellings of a secret a report may show: its wire forms (the reproduce commands substitute
 * them) and, as examples for tests and the bench, the ways a target can echo it. The redactor does not
 * match by these lists but by decoding (./redact.ts).
 */
import { escapeText } from './escape.js';

/**
 * Every wire form of a secret, longest first so a longer form is replaced before its parts (the reproduce commands'
 * substitution).
 */
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

/** Encodings a secret passes through on the wire, in documents and in reports (examples for tests and the bench). */
const ENCODERS: readonly ((s: string) => string)[] = [
  escapeText,
  (s) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  (s) => escapeText(s).replace(/"/g, '&#34;').replace(/'/g, '&#x27;'),
  (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join(''),
  (s) => [...s].map((c) => `&#X${c.codePointAt(0)!.toString(16)};`).join(''),
  encodeURIComponent,
  (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  (s) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  (s) => new URLSearchParams({ s }).toString().slice(2),
  (s) => JSON.stringify(s).slice(1, -1),
  (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
];

/**
 * Spellings a secret can be echoed in: one or two of the encodings above, whitespace folded,
 * base64, UTF-16 read as UTF-8, a single-byte reading of its UTF-8 bytes. Examples only: the
 * redactor does not match by this list but by decoding (makeSecretMatcher), so any mix of them is
 * found too.
 */
export function echoedForms(secret: string): string[] {
  if (!secret) return [];
  const once = ENCODERS.map((e) => e(secret));
  const forms = new Set([
    ...secretForms(secret),
    ...once,
    ...once.flatMap((f) => ENCODERS.map((e) => e(f))),
    secret.replace(/[ \t\r\n]+/g, ' '),
    Buffer.from(secret, 'utf8').toString('base64'),
    Buffer.from(secret, 'utf8').toString('base64url'),
    Buffer.from(secret, 'utf16le').toString('utf8'),
    Buffer.from(secret, 'utf8').toString('latin1'),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}
