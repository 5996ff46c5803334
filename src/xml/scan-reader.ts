/**
 * The second XML reader, for large answers: one pass over the text with indexOf, building the same
 * namespace-resolved tree as the fast-xml-parser path (src/xml/tree.ts) without an intermediate
 * output. On a 10 MB answer fast-xml-parser's output alone held 8-16x the document and its build
 * took most of the tree stage; this reader goes straight to XElements. Leaf text is a slice of the
 * document (V8 shares the characters for all but short slices), names are interned per distinct
 * name, and elements without attributes or children share one frozen empty list.
 *
 * Same contract as the first reader: a DOCTYPE is refused (this reader refuses every markup
 * declaration itself; parseXml says why), so no entity is ever declared and only the five
 * predefined entities and character references are decoded; any other "&name;" is left as
 * written (libxml2, through xml_wellformed, refuses that document). Nesting is bounded as the
 * first reader's is (MAX_DEPTH). It is stricter than fast-xml-parser on broken
 * markup (an end tag that does not match, an unclosed element, a duplicate attribute): it throws
 * XmlError there, where fast-xml-parser guesses; libxml2 remains the authority on well-formedness.
 */
import { XmlError } from '../core/errors.js';
import type { MarkupLimits } from './limits.js';
import { NONE, XML_NS, type XAttr, type XElement } from './element.js';

/** Open elements at most: as the first reader (fast-xml-parser's maxNestedTags 512 lets 513 open). */
export const MAX_DEPTH = 513;

const ENTITY_RE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function entity(m: string, hex: string | undefined, dec: string | undefined, name: string | undefined): string {
  if (name !== undefined) return PREDEFINED[name]!;
  const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
  return cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
}

/** Character data as the first reader gives it: line ends normalised, then references decoded. */
export function decodeText(raw: string): string {
  const t = raw.indexOf('\r') >= 0 ? raw.replace(/\r\n?/g, '\n') : raw;
  return t.indexOf('&') >= 0 ? t.replace(ENTITY_RE, entity) : t;
}

/**
 * Short texts by text, for one document: answers repeat small values (ids, counts, codes,
 * currencies), and each copy of a short string costs 24 bytes or more of a tree's memory.
 */
const SHORT_TEXT = 8;
const SHORT_TEXTS_MAX = 65_536;

/** A piece of the document as character data (decoded only when it holds "&" or CR); short ones shared. */
function textOf(xml: string, from: number, to: number, shared: Map<string, string>): string {
  if (to - from === 1) {
    // One character (a digit, a flag: two of five texts of a large answer): V8 keeps one string for
    // each character up to U+00FF, so neither a copy nor a lookup is needed.
    const c = xml.charCodeAt(from);
    if (c < 0x100 && c !== 0x26 /* & */ && c !== 0x0d /* CR */) return xml.charAt(from);
  }
  let s = xml.slice(from, to);
  if (s.indexOf('&') >= 0 || s.indexOf('\r') >= 0) s = decodeText(s);
  if (s.length > SHORT_TEXT) return s;
  const known = shared.get(s);
  if (known !== undefined) return known;
  if (shared.size < SHORT_TEXTS_MAX) shared.set(s, s);
  return s;
}

/**
 * An interned name. `next` is the name that last followed it among siblings (a record's fields come
 * in the same order item after item): tried before the map, it is a guess the text confirms.
 */
interface Name {
  readonly qname: string;
  readonly prefix: string;
  readonly local: string;
  /**
   * Only ever an interned name: a link to a document's own name would keep it (and its followers) past the document.
   */
  next: Name | undefined;
  readonly interned: boolean;
}

/** Interned names: a document repeats a few names; one string (and one split) per distinct name. */
const NAMES = new Map<string, Name>();

function nameAt(xml: string, from: number, to: number): Name {
  let raw = xml.slice(from, to);
  let n = NAMES.get(raw);
  if (n === undefined) {
    const c = raw.indexOf(':');
    const interned = NAMES.size < 4096;
    // A slice of 13 characters or more is a view of the whole document in V8: an interned name
    // kept that way would keep the document it came from for the life of the process.
    if (interned && raw.length >= 13) raw = Buffer.from(raw, 'utf16le').toString('utf16le');
    n = {
      qname: raw,
      prefix: c < 0 ? '' : raw.slice(0, c),
      local: c < 0 ? raw : raw.slice(c + 1),
      next: undefined,
      interned,
    };
    if (interned) NAMES.set(raw, n);
  }
  return n;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * Whether a character ends a start tag's name (">", "/", white space; NaN past the end of the text).
 * Most characters of a name are past '>' (0x3e), above every character that ends it: one comparison.
 */
function endsName(c: number): boolean {
  // biome-ignore lint/suspicious/noSelfCompare: `c !== c` is the NaN test of the hot path (past the end of the text)
  return c > 0x3e ? false : c === 0x3e || c === 0x2f || isSpace(c) || c !== c;
}

/**
 * The one copy V8 keeps of a string used as a property name. A namespace URI is compared with the
 * group namespace (a string literal: kept that way too) at every element by every walk; two such
 * copies compare by address, two other strings character by character.
 */
export function internalized(s: string): string {
  return Object.keys({ [s]: 0 })[0]!;
}

/** Whether `an` is among the first `count` of `names`. */
function twice(names: readonly string[], count: number, an: string): boolean {
  for (let k = 0; k < count; k++) if (names[k] === an) return true;
  return false;
}

/** Whether `xml` holds `s` at `at`: a name's few characters compared in place (startsWith costs more per call). */
function sameAt(xml: string, at: number, s: string): boolean {
  if (s.length > 32) return xml.startsWith(s, at);
  for (let k = 0; k < s.length; k++) if (xml.charCodeAt(at + k) !== s.charCodeAt(k)) return false;
  return true;
}

/** One open element while its content is read. */
interface Frame {
  name: Name;
  ns: string;
  attrs: readonly XAttr[];
  /** Where its children start in the shared list of finished elements not yet given to a parent. */
  first: number;
  text: string;
  /** Bindings this element replaced (prefix -> previous URI, undefined when there was none). */
  saved: Map<string, string | undefined> | undefined;
  /** Its namespace declarations (counted toward those in scope below it). */
  decls: number;
}

/** Thrown when a document is found over the markup limits while read (the caller says which, from scanMarkup). */
export class OverLimitError extends XmlError {}

/** Where in the document, for messages: line and column of an offset. */
function where(xml: string, at: number): string {
  let line = 1;
  let start = 0;
  for (let k = xml.indexOf('\n'); k >= 0 && k < at; k = xml.indexOf('\n', k + 1)) {
    line++;
    start = k + 1;
  }
  return `line ${line}, column ${at - start + 1}`;
}

/** The path of an element for a message: deep paths keep their first 3 and last 5 names (a message stays short). */
function pathOf(stack: readonly Frame[], depth: number, last?: string): string {
  const names: string[] = [];
  for (let d = 0; d < depth; d++) names.push(stack[d]!.name.qname);
  if (last !== undefined) names.push(last);
  const shown = names.length > 10 ? [...names.slice(0, 3), `… ${names.length - 8} more …`, ...names.slice(-5)] : names;
  return `/${shown.map((n) => (n.length > 60 ? `${n.slice(0, 59)}…` : n)).join('/')}`;
}

/**
 * The root element of `xml`, namespace-resolved; a markup declaration (a DOCTYPE) is refused. Throws XmlError
 * naming what is wrong and where. With `limits`, it counts as it reads what scanMarkup counts
 * (elements and attributes, attributes of one element, namespace declarations in scope: the same
 * figures on any document this reader accepts) and throws OverLimitError as soon as one is past its
 * limit, so that a caller need not scan the text for them first (src/xml/tree.ts, readTree).
 */
export function scanXml(xml: string, limits?: MarkupLimits): XElement {
  const n = xml.length;
  const scope = new Map<string, string>([['xml', XML_NS]]);
  // Frames are reused by depth: one per level for the whole document, not one per element.
  const stack: Frame[] = [];
  const lastName: (Frame['name'] | undefined)[] = [];
  // Finished elements not yet given to a parent: the first `doneTop` (a count, not the list's
  // length: setting a length is a call into the runtime, at every element).
  const done: XElement[] = [];
  let doneTop = 0;
  const shortTexts = new Map<string, string>();
  let depth = 0;
  let root: XElement | undefined;
  let roots = 0;
  // Attribute names and values of the start tag being read (reused from tag to tag).
  const attrNames: string[] = [];
  const attrValues: string[] = [];
  let attrCount = 0;
  // What the limits count: elements and attributes so far, declarations in scope at the open element.
  let nodes = 0;
  let inScope = 0;
  const maxNodes = limits?.nodes ?? Infinity;
  const maxAttrs = limits?.attributesPerElement ?? Infinity;
  const maxInScope = limits?.namespacesInScope ?? Infinity;
  let i = 0;
  const bad = (what: string, at: number): never => {
    throw new XmlError(`not well-formed XML: ${what} (${where(xml, at)})`);
  };
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const stop = lt < 0 ? n : lt;
    // Character data between markup: kept inside an element, dropped outside the root (as the first reader).
    if (stop > i && depth > 0) {
      const f = stack[depth - 1]!;
      const t = textOf(xml, i, stop, shortTexts);
      f.text = f.text === '' ? t : f.text + t;
    }
    if (lt < 0) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === 0x2f /* / */) {
      // The usual end tag is the open element's name and ">" at once: compared in place, no search
      // for ">" (a second pass over the name, which is most of an answer's characters).
      const q = depth > 0 ? stack[depth - 1]!.name.qname : '';
      let gt = lt + 2 + q.length;
      if (depth === 0 || xml.charCodeAt(gt) !== 0x3e || !sameAt(xml, lt + 2, q)) {
        gt = xml.indexOf('>', lt + 2);
        if (gt < 0) bad('unterminated end tag', lt);
        let e = gt;
        while (e > lt + 2 && isSpace(xml.charCodeAt(e - 1))) e--;
        if (depth === 0) bad(`end tag </${xml.slice(lt + 2, e)}> without a start tag`, lt);
        if (e - (lt + 2) !== q.length || !sameAt(xml, lt + 2, q))
          bad(`end tag </${xml.slice(lt + 2, e)}> does not match <${q}>`, lt);
      }
      const f = stack[depth - 1]!;
      depth--;
      inScope -= f.decls;
      const el = close(f);
      if (depth > 0) done[doneTop++] = el;
      else {
        root ??= el;
        roots++;
      }
      i = gt + 1;
      continue;
    }
    if (c === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) bad('unterminated comment', lt);
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) bad('unterminated CDATA section', lt);
        if (depth > 0 && end > lt + 9) {
          const f = stack[depth - 1]!;
          let t = xml.slice(lt + 9, end);
          if (t.indexOf('\r') >= 0) t = t.replace(/\r\n?/g, '\n');
          f.text = f.text === '' ? t : f.text + t;
        }
        i = end + 3;
      } else {
        bad('markup declaration not allowed here', lt);
      }
      continue;
    }
    if (c === 0x3f /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) bad('unterminated processing instruction', lt);
      i = end + 2;
      continue;
    }
    // A start tag: the name, then attributes up to ">" or "/>". Siblings mostly repeat a name (a
    // list's items) or follow the order they did before (a record's fields): the one last opened at
    // this depth, then the one that followed it last time, are compared in place (followed by the
    // end of a name) before the name is scanned for and looked up.
    const prev = lastName[depth];
    let name: Name | undefined;
    let j = lt + 1;
    if (prev !== undefined && sameAt(xml, lt + 1, prev.qname) && endsName(xml.charCodeAt(lt + 1 + prev.qname.length)))
      name = prev;
    else {
      const guess = prev?.next;
      if (
        guess !== undefined
        && sameAt(xml, lt + 1, guess.qname)
        && endsName(xml.charCodeAt(lt + 1 + guess.qname.length))
      )
        name = guess;
    }
    if (name !== undefined) j += name.qname.length;
    else {
      while (j < n && !endsName(xml.charCodeAt(j))) j++;
      if (j === lt + 1) bad('"<" not followed by a name', lt);
      name = nameAt(xml, lt + 1, j);
      if (prev !== undefined && name.interned) prev.next = name;
    }
    lastName[depth] = name;
    attrCount = 0;
    let seen: Set<string> | undefined;
    let empty = false;
    for (;;) {
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      if (j >= n) bad(`unterminated start tag <${name.qname}>`, lt);
      const k = xml.charCodeAt(j);
      if (k === 0x3e /* > */) {
        j++;
        break;
      }
      if (k === 0x2f /* / */) {
        if (xml.charCodeAt(j + 1) !== 0x3e) bad(`"/" not followed by ">" in <${name.qname}>`, j);
        empty = true;
        j += 2;
        break;
      }
      const a = j;
      while (j < n) {
        const m = xml.charCodeAt(j);
        if (m <= 0x3e && (m === 0x3d /* = */ || m === 0x3e || m === 0x2f || isSpace(m))) break;
        j++;
      }
      const an = xml.slice(a, j);
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      if (xml.charCodeAt(j) !== 0x3d) bad(`attribute ${an} of <${name.qname}> has no value`, a);
      j++;
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      const quote = xml.charCodeAt(j);
      if (quote !== 0x22 && quote !== 0x27) bad(`the value of attribute ${an} of <${name.qname}> is not quoted`, j);
      const end = xml.indexOf(quote === 0x22 ? '"' : "'", j + 1);
      if (end < 0) bad(`unterminated value of attribute ${an} of <${name.qname}>`, j);
      // A list's includes() for the usual few attributes; a set past them (callers without the
      // markup limits, such as the mock reading requests, may pass 100,000 on one element).
      if (attrCount < 16 ? twice(attrNames, attrCount, an) : (seen ??= new Set(attrNames.slice(0, attrCount))).has(an))
        bad(`attribute ${an} given twice on <${name.qname}>`, a);
      seen?.add(an);
      attrNames[attrCount] = an;
      attrValues[attrCount++] = textOf(xml, j + 1, end, shortTexts);
      j = end + 1;
    }
    i = j;
    const f = open(
      (stack[depth] ??= { name, ns: '', attrs: NONE, first: 0, text: '', saved: undefined, decls: 0 }),
      name,
      attrNames,
      attrValues,
      attrCount,
      scope,
      stack,
      depth,
    );
    nodes += 1 + attrCount;
    if (nodes > maxNodes || attrCount > maxAttrs || inScope + f.decls > maxInScope) {
      restore(f, scope);
      throw new OverLimitError('the document is over the markup limits');
    }
    if (empty) {
      const el = close(f);
      if (depth > 0) done[doneTop++] = el;
      else {
        root ??= el;
        roots++;
      }
    } else {
      if (depth >= MAX_DEPTH) bad(`more than ${MAX_DEPTH} nested elements at ${pathOf(stack, depth, name.qname)}`, lt);
      inScope += f.decls;
      depth++;
    }
  }
  if (depth > 0) {
    bad(
      `element <${stack[depth - 1]!.name.qname}> is not closed at the end of the document (${pathOf(stack, depth)})`,
      n,
    );
  }
  if (root === undefined) throw new XmlError('no root element');
  if (roots !== 1) throw new XmlError(`${roots} root elements, expected one`);
  return root;

  /** An element's start: its declarations enter the scope, its names are resolved. */
  function open(
    f: Frame,
    nm: Frame['name'],
    names: string[],
    values: string[],
    count: number,
    sc: Map<string, string>,
    st: Frame[],
    d: number,
  ): Frame {
    let saved: Map<string, string | undefined> | undefined;
    let plain = 0;
    let decls = 0;
    for (let k = 0; k < count; k++) {
      const an = names[k]!;
      if (an === 'xmlns' || an.startsWith('xmlns:')) {
        decls++;
        const p = an === 'xmlns' ? '' : an.slice(6);
        saved ??= new Map();
        if (!saved.has(p)) saved.set(p, sc.get(p));
        sc.set(p, internalized(values[k]!));
      } else {
        plain++;
      }
    }
    f.name = nm;
    f.ns = '';
    f.attrs = NONE;
    f.first = doneTop;
    f.text = '';
    f.saved = saved;
    f.decls = decls;
    try {
      const ns = sc.get(nm.prefix);
      if (ns === undefined && nm.prefix !== '')
        throw new XmlError(`undeclared namespace prefix "${nm.prefix}" on element ${pathOf(st, d, nm.qname)}`);
      f.ns = ns ?? '';
      if (plain > 0) {
        // Exactly its size: a list grown by push would keep 17 slots for one attribute.
        const attrs = new Array<XAttr>(plain);
        let at = 0;
        for (let k = 0; k < count; k++) {
          const an = names[k]!;
          if (an === 'xmlns' || an.startsWith('xmlns:')) continue;
          const q = nameAt(an, 0, an.length);
          const ans = q.prefix === '' ? '' : sc.get(q.prefix);
          if (ans === undefined)
            throw new XmlError(
              `undeclared namespace prefix "${q.prefix}" on attribute ${an} of ${pathOf(st, d, nm.qname)}`,
            );
          attrs[at++] = { ns: ans, local: q.local, prefix: q.prefix, value: values[k]! };
        }
        f.attrs = attrs;
      }
    } catch (e) {
      restore(f, sc);
      throw e;
    }
    return f;
  }

  /** An element's end: the scope is put back and the element made. */
  function close(f: Frame): XElement {
    restore(f, scope);
    // The same literal shape as the first reader's elements (one hidden class for the checks' code).
    // Children are collected in one shared list and copied out at the end, each list exactly its
    // size (a list grown by push keeps up to half again as many slots: megabytes on a large answer).
    let children: readonly XElement[] = NONE;
    if (doneTop > f.first) {
      children = done.slice(f.first, doneTop);
      doneTop = f.first;
    }
    return { ns: f.ns, local: f.name.local, prefix: f.name.prefix, attrs: f.attrs, children, text: f.text };
  }
}

function restore(f: Frame, scope: Map<string, string>): void {
  if (!f.saved) return;
  for (const [p, uri] of f.saved) {
    if (uri === undefined) scope.delete(p);
    else scope.set(p, uri);
  }
  f.saved = undefined;
}
