/**
 * Secrets never reach a report, a log or the console. Rather than listing the spellings a secret
 * can take (they multiply: any mix of escaped and literal characters, any case of hex digits, two
 * layers of escaping), a text is read through decoded views and the secret looked for in each:
 *
 * - the text as it is;
 * - the text with one layer of escaping undone: XML/HTML entities (named, decimal and hex numeric
 *   references, any case), percent-encoding (any case, any subset of bytes; UTF-8, else Latin-1),
 *   `%uXXXX`, JSON escapes (`\uXXXX`, `\"`, `\n`...), form encoding (`+` for a space, in a view of
 *   its own), and NUL characters dropped (a UTF-16 body read as UTF-8 or Latin-1 puts one between
 *   every two characters);
 * - the same applied twice (a fault quoting an escaped request escapes it again).
 *
 * In each view the secret is looked for as itself, whitespace runs folded to one space (as quotes in
 * findings fold them), as the single-byte readings of its UTF-8 bytes (Latin-1, Windows-1252...),
 * as its single-byte encodings read as UTF-8 (a Latin-1 body: every non-ASCII character becomes
 * U+FFFD), as its UTF-16 bytes read as UTF-8 or Latin-1, and in base64; and its start (3 characters
 * or more) right before a cut ("…"). A hit in a view is mapped back to the characters of the text
 * that produced it, and those are replaced. Linear in the text: one pass per view, and a view is
 * only built when the text holds something it would decode. URL user-info passwords are redacted
 * too.
 */
import { decodedView, identity, markupView, type View, withoutNuls } from './decoded-views.js';
import { MIN_PARTIAL, readings } from './secret-readings.js';

export { echoedForms, secretForms } from './secret-forms.js';
export { swapCase } from './secret-readings.js';

export const REDACTED = '***';

export type Redactor = (text: string) => string;

/** An escape sequence left incomplete by a cut. */
const CUT_ESCAPE = /(?:&#?[xX]?[0-9a-zA-Z]{0,8}|%[uU]?[0-9a-fA-F]{0,3}|\\[uU]?[0-9a-fA-F]{0,3})$/;

/** A NUL character, as it is or escaped, right after or right before a range. */
const NUL_SPELLING = '(?:\\u0000|\\\\u0000|%00|&#0+;|&#[xX]0+;)';
const NUL_AFTER = new RegExp(`^${NUL_SPELLING}`);
const NUL_BEFORE = new RegExp(`${NUL_SPELLING}$`);

export interface SecretMatcher {
  /** Ranges [start, end) of the text that spell a secret, merged, in order. */
  spans(text: string): Array<[number, number]>;
}

/** Finds every spelling of the given secrets in a text (see the module comment). */
export function makeSecretMatcher(secrets: readonly string[]): SecretMatcher {
  const forms = [...new Set(secrets.filter(Boolean).flatMap(readings))].sort((a, b) => b.length - a.length);
  const plus = secrets.some((s) => /[ \t\r\n]/.test(s));
  const partials = forms.filter((f) => f.length > MIN_PARTIAL);
  return {
    spans(text: string): Array<[number, number]> {
      if (forms.length === 0 || text === '') return [];
      const found: Array<[number, number]> = [];
      // A text with nothing to decode, no markup and no cut is its only view: the forms as they are.
      if (!(plus ? ANY_VIEW_PLUS : ANY_VIEW).test(text)) {
        for (const f of forms) {
          for (let at = text.indexOf(f); at >= 0; at = text.indexOf(f, at + f.length)) found.push([at, at + f.length]);
        }
        return merge(found);
      }
      // The text, without its NULs; each decoded once, then twice (form decoding in views of their own).
      const v0 = identity(text);
      const start = [v0, withoutNuls(v0)].filter((v): v is View => v !== undefined);
      const once = start
        .flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined])
        .filter((v): v is View => v !== undefined);
      const twice = once
        .flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined])
        .filter((v): v is View => v !== undefined);
      // The text content where markup splits a secret (CDATA sections, comments): of the text and of
      // its decoded views (a report escapes the markup, once or twice), then decoded (a character
      // reference between the pieces, "<![CDATA[Zq8]]>&#45;secret").
      const content = [...start, ...once, ...twice].map(markupView).filter((v): v is View => v !== undefined);
      const contentDecoded = content
        .flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined])
        .filter((v): v is View => v !== undefined);
      const contentTwice = contentDecoded.map((v) => decodedView(v, false)).filter((v): v is View => v !== undefined);
      const views = [...start, ...once, ...twice, ...content, ...contentDecoded, ...contentTwice];
      for (const view of views) {
        const t = view.text;
        for (const f of forms) {
          for (let at = t.indexOf(f); at >= 0; at = t.indexOf(f, at + f.length))
            found.push(view.span(at, at + f.length));
        }
        // The start of a secret right before a cut ("…", or a line break and "…").
        if (partials.length === 0 || !t.includes('…')) continue;
        for (let pos = t.indexOf('…'); pos >= 0; pos = t.indexOf('…', pos + 1)) {
          if (pos === 0) continue;
          let end = t[pos - 1] === '\n' ? pos - 1 : pos;
          const tail = CUT_ESCAPE.exec(t.slice(Math.max(0, end - 16), end));
          const cutEnd = end;
          if (tail && tail[0].length > 0) end -= tail[0].length;
          let longest = 0;
          for (const f of partials) {
            for (let k = Math.min(f.length - 1, end); k >= MIN_PARTIAL && k > longest; k--) {
              if (t.startsWith(f.slice(0, k), end - k)) {
                longest = k;
                break;
              }
            }
          }
          if (longest > 0) found.push(view.span(end - longest, cutEnd));
        }
      }
      // A UTF-16 spelling: take the NULs on either side of it along (as they are, or escaped).
      for (const f of found) {
        for (
          let m = NUL_AFTER.exec(text.slice(f[1], f[1] + 16));
          m && m[0].length > 0;
          m = NUL_AFTER.exec(text.slice(f[1], f[1] + 16))
        )
          f[1] += m[0].length;
        for (
          let m = NUL_BEFORE.exec(text.slice(Math.max(0, f[0] - 16), f[0]));
          m && m[0].length > 0;
          m = NUL_BEFORE.exec(text.slice(Math.max(0, f[0] - 16), f[0]))
        )
          f[0] -= m[0].length;
      }
      return merge(found);
    },
  };
}

/**
 * A character some view other than the text itself starts from: an escape (`&`, `%`, `\`, NUL; `+`
 * in the form view), markup (`<!`: a CDATA section or a comment), a cut (`…`). Without one, no view
 * but the text can differ from it.
 */
const ANY_VIEW = /[&%\\\u0000…]|<!/;
const ANY_VIEW_PLUS = /[&%\\\u0000…+]|<!/;

/** Ranges sorted and merged where they overlap or touch. */
function merge(found: Array<[number, number]>): Array<[number, number]> {
  if (found.length <= 1) return found;
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [found[0]!];
  for (const [s, e] of found.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** The text with the given ranges replaced. */
export function replaceSpans(
  text: string,
  spans: readonly (readonly [number, number])[],
  replacement = REDACTED,
): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s) + replacement;
    at = e;
  }
  return out + text.slice(at);
}

// scheme://user:password@ — the password runs to the last "@" before the path (it may hold "@").
const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s]*@/gi;
// The same shape without the scheme: a literal start, so texts without user info are passed over fast.
const USERINFO_HINT_RE = /:\/\/[^/\s:@]*:[^/\s]*@/;

/** A function that redacts the given secrets (in every spelling) and any URL user-info password from text. */
export function makeRedactor(secrets: readonly string[], replacement = REDACTED): Redactor {
  const matcher = makeSecretMatcher(secrets);
  return (text: string) => {
    if (text === '') return text;
    const out = USERINFO_HINT_RE.test(text) ? text.replace(USERINFO_RE, `$1${replacement}@`) : text;
    return replaceSpans(out, matcher.spans(out), replacement);
  };
}

/**
 * Hides a URL user-info password and nothing else: for what the harness writes of the target's own
 * addresses, where no other secret can be (a short password redacted there would turn "http" into "htt***").
 */
export const redactUserInfo: Redactor = makeRedactor([]);
