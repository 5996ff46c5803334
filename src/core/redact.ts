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
import { escapeText } from './escape.js';

export const REDACTED = '***';

export type Redactor = (text: string) => string;

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

// ---- decoded views ---------------------------------------------------------------------------------

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const JSON_SHORT: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  "'": "'",
};

/** Whether one layer of decoding could change the text at all. */
function decodable(text: string, plus: boolean): boolean {
  return /[&%\\\u0000]/.test(text) || (plus && text.includes('+'));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function fromCodePoint(cp: number): string | undefined {
  return cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
}

/** A hex digit's value, or -1. */
function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The value of `n` hex digits at `at`, or -1 when one of them is not. */
function hexAt(text: string, at: number, n: number): number {
  if (at + n > text.length) return -1;
  let v = 0;
  for (let k = 0; k < n; k++) {
    const h = hexVal(text.charCodeAt(at + k));
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

/**
 * A run of %XX bytes at `at` (the caller saw one): its end, and the bytes decoded, NULs kept: as
 * UTF-8 when the run is two bytes or more of valid UTF-8, else one Latin-1 character per byte.
 */
function percentRun(text: string, at: number): { end: number; chars: string; utf8: boolean } {
  const bytes: number[] = [];
  let k = at;
  for (
    let b = k + 1 < text.length && text.charCodeAt(k) === 0x25 ? hexAt(text, k + 1, 2) : -1;
    b >= 0;
    b = k < text.length && text.charCodeAt(k) === 0x25 ? hexAt(text, k + 1, 2) : -1
  ) {
    bytes.push(b);
    k += 3;
  }
  if (bytes.length > 1) {
    try {
      const chars = utf8.decode(Uint8Array.from(bytes));
      if (chars.length > 0) return { end: k, chars, utf8: true };
    } catch {
      /* not UTF-8: Latin-1 */
    }
  }
  return { end: k, chars: Buffer.from(bytes).toString('latin1'), utf8: false };
}

/**
 * The escape sequence at `i` (where an '&', '%', '\\', NUL or, in the form view, '+' stands): where
 * it ends and what it decodes to (NULs dropped), or undefined when none starts there (the character
 * then stands for itself). An entity naming no character we know ("&nbsp;") is none.
 */
function escapeAt(text: string, i: number, plus: boolean): { end: number; s: string } | undefined {
  const c = text.charCodeAt(i);
  if (c === 0) return { end: i + 1, s: '' };
  if (c === 0x2b) return plus ? { end: i + 1, s: ' ' } : undefined;
  const len = text.length;
  if (c === 0x26) {
    // &
    let k = i + 1;
    if (text.charCodeAt(k) === 0x23) {
      // #
      k++;
      const hex = text.charCodeAt(k) === 0x78 || text.charCodeAt(k) === 0x58;
      if (hex) k++;
      const start = k;
      let v = 0;
      const max = hex ? 8 : 10;
      for (; k < len && k - start < max; k++) {
        const d = hex
          ? hexVal(text.charCodeAt(k))
          : text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57
            ? text.charCodeAt(k) - 48
            : -1;
        if (d < 0) break;
        v = v * (hex ? 16 : 10) + d;
      }
      if (k === start || text.charCodeAt(k) !== 0x3b) return undefined;
      const s = fromCodePoint(v);
      return s === undefined ? undefined : { end: k + 1, s: s === '\u0000' ? '' : s };
    }
    const start = k;
    for (; k < len && k - start < 4; k++) {
      const l = text.charCodeAt(k) | 0x20;
      if (l < 97 || l > 122) break;
    }
    if (k - start < 2 || text.charCodeAt(k) !== 0x3b) return undefined;
    const s = NAMED[text.slice(start, k).toLowerCase()];
    return s === undefined ? undefined : { end: k + 1, s };
  }
  const next = text.charCodeAt(i + 1);
  if (next === 0x75 || next === 0x55) {
    // %u, \u
    const v = hexAt(text, i + 2, 4);
    if (v >= 0) return { end: i + 6, s: v === 0 ? '' : String.fromCharCode(v) };
  }
  if (c === 0x25) {
    // %
    if (hexAt(text, i + 1, 2) < 0) return undefined;
    const run = percentRun(text, i);
    return { end: run.end, s: run.chars.includes('\u0000') ? run.chars.replace(/\u0000/g, '') : run.chars };
  }
  // A backslash: JSON's short escapes.
  const s = JSON_SHORT[text[i + 1] ?? ''];
  return s === undefined ? undefined : { end: i + 2, s };
}

const LT = { end: 4, s: '<' };
const GT = { end: 4, s: '>' };
const AMP = { end: 5, s: '&' };
const QUOT = { end: 6, s: '"' };

/**
 * "&lt;", "&gt;", "&amp;" or "&quot;" at `i` (in lower case: what an escaper writes), or undefined: the bulk of a
 * report's escapes, read without parsing.
 */
function commonEntity(text: string, i: number): { end: number; s: string } | undefined {
  const a = text.charCodeAt(i + 1);
  const b = text.charCodeAt(i + 2);
  const e =
    a === 0x6c && b === 0x74
      ? LT
      : a === 0x67 && b === 0x74
        ? GT
        : a === 0x61 && b === 0x6d && text.charCodeAt(i + 3) === 0x70
          ? AMP
          : a === 0x71 && b === 0x75 && text.charCodeAt(i + 3) === 0x6f && text.charCodeAt(i + 4) === 0x74
            ? QUOT
            : undefined;
  return e !== undefined && text.charCodeAt(i + e.end - 1) === 0x3b ? { end: i + e.end, s: e.s } : undefined;
}

/**
 * The text with one layer of escaping undone, and where each of its characters came from: output
 * character k was produced by the input range [from[k], to[k]). `map` false skips the ranges (a
 * first look, to see whether the view holds a secret at all). Both come from the same scan and the
 * same decoding of each escape, so the first look and the mapped text are the same string.
 */
function decodeOnce(text: string, plus: boolean, map: boolean): { text: string; from?: Int32Array; to?: Int32Array } {
  const from = map ? new Int32Array(text.length) : undefined;
  const to = map ? new Int32Array(text.length) : undefined;
  const parts: string[] = [];
  let n = 0; // output characters so far (mapped only)
  let at = 0; // input characters consumed so far
  const len = text.length;
  // Where the next character that can start an escape stands, one native search per kind.
  const next = [-1, -1, -1, -1, -1];
  const starts = plus ? ['&', '%', '\\', '\u0000', '+'] : ['&', '%', '\\', '\u0000'];
  for (let i = 0; ; ) {
    let i2 = len;
    for (let s = 0; s < starts.length; s++) {
      if (next[s]! < i) next[s] = text.indexOf(starts[s]!, i) >>> 0; // none: 2^32 - 1, past any end
      if (next[s]! < i2) i2 = next[s]!;
    }
    if (i2 >= len) break;
    i = i2;
    const c = text.charCodeAt(i);
    const e = c === 0x26 ? (commonEntity(text, i) ?? escapeAt(text, i, plus)) : escapeAt(text, i, plus);
    if (e === undefined) {
      i++;
      continue;
    }
    if (i > at) {
      parts.push(text.slice(at, i));
      if (from) {
        for (let k = at; k < i; k++) {
          from[n] = k;
          to![n++] = k + 1;
        }
      }
    }
    if (e.s !== '') parts.push(e.s);
    if (from) {
      if (c === 0x25 && hexAt(text, i + 1, 2) >= 0) {
        // A run of %XX: each character maps onto its own bytes (three characters per byte; a NUL's are dropped).
        const { chars, utf8: multi } = percentRun(text, i);
        let p = i;
        for (const ch of multi ? chars : chars.split('')) {
          const w = (multi ? Buffer.byteLength(ch, 'utf8') : 1) * 3;
          if (ch !== '\u0000') {
            for (let k = 0; k < ch.length; k++) {
              from[n] = p;
              to![n++] = p + w;
            }
          }
          p += w;
        }
      } else {
        for (let k = 0; k < e.s.length; k++) {
          from[n] = i;
          to![n++] = e.end;
        }
      }
    }
    at = e.end;
    i = e.end;
  }
  if (at === 0 && !from) return { text };
  if (at < len) {
    parts.push(text.slice(at));
    if (from) {
      for (let k = at; k < len; k++) {
        from[n] = k;
        to![n++] = k + 1;
      }
    }
  }
  const out = parts.join('');
  return from ? { text: out, from: from.subarray(0, n), to: to!.subarray(0, n) } : { text: out };
}

/** A view of the text and how to map its ranges back onto the text. */
interface View {
  readonly text: string;
  /** The range of the original text a range of this view came from. */
  span(start: number, end: number): [number, number];
}

const identity = (text: string): View => ({ text, span: (s, e) => [s, e] });

/** A NUL character as it is or escaped (JSON, percent, character reference): a UTF-16 text read as bytes. */
const NULS = /\u0000|\\u0000|%00|&#0+;|&#[xX]0+;/g;

/** The view of `parent` with every match of the global regex `re` taken out, or undefined when nothing matches. */
function without(parent: View, re: RegExp): View | undefined {
  const kept: Array<[number, number]> = []; // ranges of the parent kept, in order
  let at = 0;
  let matched = false;
  for (const m of parent.text.matchAll(re)) {
    matched = true;
    if (m.index! > at) kept.push([at, m.index!]);
    at = m.index! + m[0].length;
  }
  if (!matched) return undefined;
  if (at < parent.text.length) kept.push([at, parent.text.length]);
  const text = kept.map(([a, b]) => parent.text.slice(a, b)).join('');
  const starts: number[] = []; // offset in this view where each kept range starts
  let n = 0;
  for (const [a, b] of kept) {
    starts.push(n);
    n += b - a;
  }
  const toParent = (k: number): number => {
    let lo = 0;
    let hi = kept.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return kept[lo]![0] + (k - starts[lo]!);
  };
  return { text, span: (s, e) => parent.span(toParent(s), toParent(e - 1) + 1) };
}

/**
 * The view of `parent` with its NUL characters and their escapes taken out, and nothing else
 * decoded: in a report, the backslash of a password can stand right before an escaped NUL ("\\u0000"
 * in HTML), which a JSON reading would take as an escaped backslash.
 */
function withoutNuls(parent: View): View | undefined {
  if (!/\u0000|\\u0000|%00|&#/.test(parent.text)) return undefined;
  return without(parent, NULS);
}

/**
 * XML markup that is no part of a text's content: the delimiters of CDATA sections and comments
 * (bounded in length, so a comment never closed costs no quadratic scan).
 */
const MARKUP = /<!\[CDATA\[|\]\]>|<!--[\s\S]{0,4096}?-->/g;
const MARKUP_HINT = /<!\[CDATA\[|<!--/;

/**
 * The text content of `parent` as far as markup goes: adjacent CDATA sections joined and comments
 * left out ("<![CDATA[Zq8]]><![CDATA[-secret]]>", "Zq8<!-- x -->-secret"), taken out again until
 * nothing is left to take (a "]]>" split as "]]]]><![CDATA[>" inside another CDATA section). A match
 * maps back over the markup between its pieces, so every piece is replaced. Undefined when the text
 * holds no such markup.
 */
function markupView(parent: View): View | undefined {
  if (!MARKUP_HINT.test(parent.text)) return undefined;
  let v = without(parent, MARKUP);
  for (let i = 0; v && i < 2; i++) {
    const again = without(v, MARKUP);
    if (!again) break;
    v = again;
  }
  return v;
}

/** The view decoded once more from `parent`, or undefined when decoding changes nothing. */
function decodedView(parent: View, plus: boolean): View | undefined {
  if (!decodable(parent.text, plus)) return undefined;
  const look = decodeOnce(parent.text, plus, false).text;
  if (look === parent.text) return undefined;
  let mapped: { from: Int32Array; to: Int32Array } | undefined;
  return {
    text: look,
    span(s, e) {
      mapped ??= decodeOnce(parent.text, plus, true) as { text: string; from: Int32Array; to: Int32Array };
      return parent.span(mapped.from[s]!, mapped.to[e - 1]!);
    },
  };
}

// ---- what is looked for ----------------------------------------------------------------------------

/** windows-1252's bytes 0x80-0x9F, by character (the rest of the range is Latin-1). */
const CP1252 = new Map<string, number>();
{
  const d = new TextDecoder('windows-1252');
  for (let b = 0x80; b <= 0x9f; b++) CP1252.set(d.decode(Uint8Array.of(b)), b);
}

/** The secret in a single-byte encoding, or undefined when a character has no byte there. */
function singleByte(secret: string, cp1252: boolean): Buffer | undefined {
  const out: number[] = [];
  for (const ch of secret) {
    const c = ch.codePointAt(0)!;
    const b =
      cp1252 && CP1252.has(ch) ? CP1252.get(ch)! : c <= 0xff && !(cp1252 && c >= 0x80 && c <= 0x9f) ? c : undefined;
    if (b === undefined) return undefined;
    out.push(b);
  }
  return Buffer.from(out);
}

const SINGLE_BYTE_READINGS = [
  'windows-1252',
  'iso-8859-2',
  'iso-8859-15',
  'windows-1250',
  'windows-1251',
  'koi8-r',
  'ibm866',
];

/**
 * The password with the case of every letter swapped (equal to it when it has no letter): the password-case variant's.
 */
export function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The strings a secret can read as, in any decoded view (see the module comment). */
function readings(secret: string): string[] {
  // The password in other letter case is as good as the password (the password-case credential
  // variant sends it; a service comparing without regard to case accepts it).
  // Its proper prefix too (the login-password-prefix variant sends it: all of the password but one
  // character would show otherwise); the password itself, longer, is matched first where it stands.
  const prefix = [...secret].slice(0, -1).join('');
  const out = new Set<string>([
    secret,
    secret.replace(/[ \t\r\n]+/g, ' '),
    swapCase(secret),
    ...(prefix.length > MIN_PARTIAL ? [prefix] : []),
  ]);
  const bytes = Buffer.from(secret, 'utf8');
  if (/[^\u0000-\u007f]/.test(secret)) {
    out.add(bytes.toString('latin1'));
    for (const label of SINGLE_BYTE_READINGS) {
      try {
        out.add(new TextDecoder(label).decode(bytes));
      } catch {
        /* an encoding this Node lacks */
      }
    }
    for (const cp1252 of [false, true]) {
      const b = singleByte(secret, cp1252);
      if (b) out.add(b.toString('utf8'));
    }
    out.add(secret.replace(/[^\u0000-\u007f]/gu, '\uFFFD'));
  }
  const le = Buffer.from(secret, 'utf16le');
  const be = Buffer.from(le).swap16();
  for (const b of [le, be]) {
    out.add(b.toString('utf8').replace(/\u0000/g, ''));
    out.add(b.toString('latin1').replace(/\u0000/g, ''));
  }
  for (const enc of ['base64', 'base64url'] as const) {
    out.add(bytes.toString(enc));
    // Inside a longer base64 text (user:password, a JSON body): the characters that depend on the secret alone, for
    // each alignment.
    for (let pad = 1; pad <= 2; pad++) {
      const whole = Buffer.concat([Buffer.alloc(pad), bytes])
        .toString(enc)
        .replace(/=+$/, '');
      const stable = whole.slice(Math.ceil((pad * 4) / 3), Math.floor(((pad + bytes.length) * 4) / 3));
      if (stable.length >= 8) out.add(stable);
    }
  }
  return [...out].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** Shortest start of a secret redacted where a text was cut ("…"). */
const MIN_PARTIAL = 3;
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
