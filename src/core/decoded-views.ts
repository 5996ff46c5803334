/**
 * The decoded views of a text the redactor looks for a secret in (./redact.ts, its module comment):
 * one layer of escaping undone (entities, percent, %uXXXX, JSON escapes, form encoding), NULs taken
 * out, markup between a secret's pieces taken out; each view maps its ranges back onto the text. A
 * view is only built when the text holds something it would change.
 */

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
export interface View {
  readonly text: string;
  /** The range of the original text a range of this view came from. */
  span(start: number, end: number): [number, number];
}

export const identity = (text: string): View => ({ text, span: (s, e) => [s, e] });

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
export function withoutNuls(parent: View): View | undefined {
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
export function markupView(parent: View): View | undefined {
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
export function decodedView(parent: View, plus: boolean): View | undefined {
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
