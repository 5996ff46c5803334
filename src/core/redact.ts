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

/** Every wire form of a secret, longest first so a longer form is replaced before its parts (the reproduce commands' substitution). */
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
const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', "'": "'" };

/** Whether one layer of decoding could change the text at all. */
function decodable(text: string, plus: boolean): boolean {
  return /[&%\\\u0000]/.test(text) || (plus && text.includes('+'));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function fromCodePoint(cp: number): string | undefined {
  return cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
}

/**
 * Every escape sequence one layer of decoding undoes, in the order a scan tries them at a position:
 * an entity, `%uXXXX`, a run of `%XX` bytes, `\uXXXX`, a short JSON escape, a NUL (dropped), and in
 * the form view `+`. One regex, so a text is scanned natively and only its escapes cost a call.
 */
const ESCAPES = String.raw`&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,10})|([a-zA-Z]{2,4}));|%[uU]([0-9a-fA-F]{4})|((?:%[0-9a-fA-F]{2})+)|\\[uU]([0-9a-fA-F]{4})|\\(["\\/nrtbf'])|\u0000`;
const ESCAPE_RE = new RegExp(ESCAPES, 'g');
const ESCAPE_PLUS_RE = new RegExp(`${ESCAPES}|\\+`, 'g');

/**
 * A run of %XX bytes decoded, NULs kept: as UTF-8 when the run is two bytes or more of valid UTF-8,
 * else one Latin-1 character per byte.
 */
function percentBytes(run: string): { chars: string; utf8: boolean } {
  const bytes = new Uint8Array(run.length / 3);
  for (let b = 0; b < bytes.length; b++) bytes[b] = parseInt(run.slice(3 * b + 1, 3 * b + 3), 16);
  if (bytes.length > 1) {
    try {
      const chars = utf8.decode(bytes);
      if (chars.length > 0) return { chars, utf8: true };
    } catch { /* not UTF-8: Latin-1 */ }
  }
  return { chars: Buffer.from(bytes).toString('latin1'), utf8: false };
}

/** What one match of ESCAPE_RE decodes to ('' for a NUL; the match itself for an entity that names no character). */
function decodeEscape(m: string, hex?: string, dec?: string, name?: string, pu?: string, pct?: string, ju?: string, short?: string): string {
  if (m === '+') return ' ';
  if (m === '\u0000') return '';
  let s: string | undefined;
  if (hex !== undefined) s = fromCodePoint(parseInt(hex, 16));
  else if (dec !== undefined) s = fromCodePoint(Number(dec));
  else if (name !== undefined) s = NAMED[name.toLowerCase()];
  else if (pu !== undefined || ju !== undefined) s = String.fromCharCode(parseInt((pu ?? ju)!, 16));
  else if (pct !== undefined) s = percentBytes(pct).chars.replace(/\u0000/g, '');
  else if (short !== undefined) s = JSON_SHORT[short];
  if (s === undefined) return m; // "&nbsp;", "&#99999999;": no escape of ours, and nothing in it starts another
  return s === '\u0000' ? '' : s;
}

/**
 * The text with one layer of escaping undone, and where each of its characters came from: output
 * character k was produced by the input range [from[k], to[k]). `map` false skips the ranges (a
 * first look, to see whether the view holds a secret at all). Both come from the same scan and the
 * same decoding of each escape, so the first look and the mapped text are the same string.
 */
function decodeOnce(text: string, plus: boolean, map: boolean): { text: string; from?: Int32Array; to?: Int32Array } {
  const re = plus ? ESCAPE_PLUS_RE : ESCAPE_RE;
  re.lastIndex = 0;
  if (!map) return { text: text.replace(re, decodeEscape as (m: string, ...groups: string[]) => string) };
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  const parts: string[] = [];
  let n = 0; // output characters so far
  let at = 0; // input characters consumed so far
  const literal = (end: number) => {
    for (let k = at; k < end; k++) {
      from[n] = k;
      to[n++] = k + 1;
    }
    if (end > at) parts.push(text.slice(at, end));
    at = end;
  };
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    literal(start);
    const s = decodeEscape(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
    if (s === m[0]) {
      literal(end);
      continue;
    }
    if (m[5] !== undefined) {
      // Each character maps onto its own bytes: three characters per byte (a NUL's are dropped).
      const { chars, utf8: multi } = percentBytes(m[5]);
      let p = start;
      for (const ch of multi ? chars : chars.split('')) {
        const w = (multi ? Buffer.byteLength(ch, 'utf8') : 1) * 3;
        if (ch !== '\u0000') {
          for (let k = 0; k < ch.length; k++) {
            from[n] = p;
            to[n++] = p + w;
          }
        }
        p += w;
      }
    } else {
      for (let k = 0; k < s.length; k++) {
        from[n] = start;
        to[n++] = end;
      }
    }
    parts.push(s);
    at = end;
  }
  literal(text.length);
  return { text: parts.join(''), from: from.subarray(0, n), to: to.subarray(0, n) };
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
    const b = cp1252 && CP1252.has(ch) ? CP1252.get(ch)! : c <= 0xff && !(cp1252 && c >= 0x80 && c <= 0x9f) ? c : undefined;
    if (b === undefined) return undefined;
    out.push(b);
  }
  return Buffer.from(out);
}

const SINGLE_BYTE_READINGS = ['windows-1252', 'iso-8859-2', 'iso-8859-15', 'windows-1250', 'windows-1251', 'koi8-r', 'ibm866'];

/** The password with the case of every letter swapped (equal to it when it has no letter): the password-case variant's. */
export function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The strings a secret can read as, in any decoded view (see the module comment). */
function readings(secret: string): string[] {
  // The password in other letter case is as good as the password (the password-case credential
  // variant sends it; a service comparing without regard to case accepts it).
  const out = new Set<string>([secret, secret.replace(/[ \t\r\n]+/g, ' '), swapCase(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  if (/[^\u0000-\u007f]/.test(secret)) {
    out.add(bytes.toString('latin1'));
    for (const label of SINGLE_BYTE_READINGS) {
      try {
        out.add(new TextDecoder(label).decode(bytes));
      } catch { /* an encoding this Node lacks */ }
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
    // Inside a longer base64 text (user:password, a JSON body): the characters that depend on the secret alone, for each alignment.
    for (let pad = 1; pad <= 2; pad++) {
      const whole = Buffer.concat([Buffer.alloc(pad), bytes]).toString(enc).replace(/=+$/, '');
      const stable = whole.slice(Math.ceil(((pad) * 4) / 3), Math.floor(((pad + bytes.length) * 4) / 3));
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
      // The text, without its NULs; each decoded once, then twice (form decoding in views of their own).
      const v0 = identity(text);
      const start = [v0, withoutNuls(v0)].filter((v): v is View => v !== undefined);
      const once = start.flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined]).filter((v): v is View => v !== undefined);
      const twice = once.flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined]).filter((v): v is View => v !== undefined);
      // The text content where markup splits a secret (CDATA sections, comments): of the text and of
      // its decoded views (a report escapes the markup, once or twice), then decoded (a character
      // reference between the pieces, "<![CDATA[Zq8]]>&#45;secret").
      const content = [...start, ...once, ...twice].map(markupView).filter((v): v is View => v !== undefined);
      const contentDecoded = content.flatMap((v) => [decodedView(v, false), plus ? decodedView(v, true) : undefined]).filter((v): v is View => v !== undefined);
      const contentTwice = contentDecoded.map((v) => decodedView(v, false)).filter((v): v is View => v !== undefined);
      const views = [...start, ...once, ...twice, ...content, ...contentDecoded, ...contentTwice];
      for (const view of views) {
        const t = view.text;
        for (const f of forms) {
          for (let at = t.indexOf(f); at >= 0; at = t.indexOf(f, at + f.length)) found.push(view.span(at, at + f.length));
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
        for (let m = NUL_AFTER.exec(text.slice(f[1], f[1] + 16)); m && m[0].length > 0; m = NUL_AFTER.exec(text.slice(f[1], f[1] + 16))) f[1] += m[0].length;
        for (let m = NUL_BEFORE.exec(text.slice(Math.max(0, f[0] - 16), f[0])); m && m[0].length > 0; m = NUL_BEFORE.exec(text.slice(Math.max(0, f[0] - 16), f[0]))) f[0] -= m[0].length;
      }
      if (found.length <= 1) return found;
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      const merged: Array<[number, number]> = [found[0]!];
      for (const [s, e] of found.slice(1)) {
        const last = merged[merged.length - 1]!;
        if (s <= last[1]) last[1] = Math.max(last[1], e);
        else merged.push([s, e]);
      }
      return merged;
    },
  };
}

/** The text with the given ranges replaced. */
export function replaceSpans(text: string, spans: readonly (readonly [number, number])[], replacement = REDACTED): string {
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
