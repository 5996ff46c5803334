/**
 * Secrets never reach a report, a log or the console. A redactor replaces every form a secret can
 * take on the wire (raw, percent-encoded, form-encoded, XML-escaped), the forms a target may echo it
 * back in (one or two layers of XML, URL, form and JSON escaping; base64), the start of a form left
 * where a text was cut, and URL user-info passwords.
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

/** Encodings a secret passes through on the wire, in documents and in reports. */
const ENCODERS: readonly ((s: string) => string)[] = [
  escapeText,
  (s) => escapeText(s).replace(/"/g, '&quot;'),
  (s) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  (s) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  (s) => escapeText(s).replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
  encodeURIComponent,
  (s) => new URLSearchParams({ s }).toString().slice(2),
  (s) => JSON.stringify(s).slice(1, -1),
];

/**
 * The wire forms plus the spellings a target may echo a secret back in: any one or two of the
 * encodings above (a fault quoting the escaped request escapes it again), and base64. A hostile or
 * careless target must not get the password into a report through its response. Also the raw and
 * once-encoded forms with whitespace runs folded (as quoted in findings).
 */
export function echoedForms(secret: string): string[] {
  if (!secret) return [];
  const once = ENCODERS.map((e) => e(secret));
  // Quotes in findings fold runs of XML whitespace into one space.
  const fold = (s: string) => s.replace(/[ \t\r\n]+/g, ' ');
  const forms = new Set([
    ...secretForms(secret),
    ...once,
    ...once.flatMap((f) => ENCODERS.map((e) => e(f))),
    fold(secret),
    ...once.map(fold),
    Buffer.from(secret, 'utf8').toString('base64'),
    Buffer.from(secret, 'utf8').toString('base64url'),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Shortest start of a secret form redacted where a text was cut ("…"). */
const MIN_PARTIAL = 3;

/**
 * Texts are cut to excerpts ("…" after the cut) before they are redacted: a secret form straddling
 * the cut leaves its start behind. Replace a start of a form (at least MIN_PARTIAL characters) that
 * stands right before a "…" (or a line break and "…").
 */
function redactCuts(text: string, forms: readonly string[], replacement: string): string {
  let out = text;
  // Right to left; after an edit the search goes on left of the edited part, which never moves.
  for (let pos = out.lastIndexOf('…'); pos > 0; pos = out.lastIndexOf('…', pos - 1)) {
    const end = out[pos - 1] === '\n' ? pos - 1 : pos;
    let longest = 0;
    for (const f of forms) {
      for (let k = Math.min(f.length - 1, end); k >= MIN_PARTIAL && k > longest; k--) {
        if (out.startsWith(f.slice(0, k), end - k)) {
          longest = k;
          break;
        }
      }
    }
    if (longest > 0) {
      out = `${out.slice(0, end - longest)}${replacement}${out.slice(end)}`;
      pos = end - longest;
    }
  }
  return out;
}

// scheme://user:password@ — the password runs to the last "@" before the path (it may hold "@").
const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s]*@/gi;
// The same shape without the scheme: a literal start, so texts without user info are passed over fast.
const USERINFO_HINT_RE = /:\/\/[^/\s:@]*:[^/\s]*@/;

/** A function that redacts the given secrets (and any URL user-info password) from text. */
export function makeRedactor(secrets: readonly string[], replacement = REDACTED): Redactor {
  const forms = [...new Set(secrets.flatMap(echoedForms))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    if (text === '') return text;
    // (the includes() tests only skip work: each replacement below is a no-op where they are false)
    let out = USERINFO_HINT_RE.test(text) ? text.replace(USERINFO_RE, `$1${replacement}@`) : text;
    for (const f of forms) if (f && out.includes(f)) out = out.split(f).join(replacement);
    return out.includes('…') ? redactCuts(out, forms, replacement) : out;
  };
}
