/**
 * The one XML reading path for target responses: fast-xml-parser (order preserved, no value
 * parsing) turned into a small namespace-resolved element tree. fast-xml-parser does not resolve
 * prefixes, so this module does. Documents with a DOCTYPE are refused (before fast-xml-parser
 * reads them; the one-pass reader refuses every markup declaration itself): SOAP forbids them and
 * nothing in the contract needs them, so no entity is ever expanded.
 * fast-xml-parser is lenient (it drops text outside the root, for one): libxml2, through the
 * xml_wellformed check, is the authority on well-formedness; this reader only has to be safe.
 */
import { XMLParser } from 'fast-xml-parser';
import { XmlError } from '../core/errors.js';
import { overLimit, scanMarkup, type MarkupLimits } from './limits.js';
import { decodeText, OverLimitError, scanXml } from './scan-reader.js';
import { NONE, XML_NS, type XAttr, type XElement } from './element.js';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export { XML_NS } from './element.js';
export const SOAP11_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENV_NS = 'http://www.w3.org/2003/05/soap-envelope';

export type { XAttr, XElement } from './element.js';

export interface XmlDeclaration {
  readonly version?: string;
  readonly encoding?: string;
  readonly standalone?: string;
  /** The quote character used, for diagnostics. */
  readonly raw: string;
}

export interface ParsedXml {
  readonly root: XElement;
  readonly declaration?: XmlDeclaration;
}

export { XmlError };

/** Put before every element and attribute name fast-xml-parser keys its objects with (see PARSER_OPTIONS). */
const NAME_MARK = '\u0001';

/** Marked names by name: a document repeats a few names, and each marked copy costs memory per element. */
const MARKED = new Map<string, string>();

function mark(name: string): string {
  if (name.charCodeAt(0) === 1) return name;
  let m = MARKED.get(name);
  if (m === undefined) {
    m = `${NAME_MARK}${name}`;
    if (MARKED.size < 4096) MARKED.set(name, m);
  }
  return m;
}

/** fast-xml-parser's options for target documents (exported for the benchmark's parser-only figure). */
export const PARSER_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true, // decodes numeric character references (&#233;); undefined named entities are refused by libxml2 first
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  allowBooleanAttributes: false,
  maxNestedTags: 512,
  // No callback here reads the path, so do not build a path string for every tag, attribute and
  // text (same tree; about 20% of the parser's time on a 10 MB response).
  jPath: false,
  // fast-xml-parser refuses elements and attributes named __proto__, constructor or prototype and
  // renames toString, valueOf, hasOwnProperty... (its objects are keyed by name). Every name gets a
  // mark no XML name can hold, so it is never one of those; build() takes the mark off again. (The
  // parser transforms the name of an empty-element tag twice: marking is idempotent.)
  transformTagName: mark,
  transformAttributeName: mark,
} as const;

const parser = new XMLParser(PARSER_OPTIONS);

const DECL_RE = /^\uFEFF?<\?xml\s([^?]*)\?>/;
const PSEUDO_ATTR_RE = /(\w+)\s*=\s*("([^"]*)"|'([^']*)')/g;
const DOCTYPE_RE = /<!DOCTYPE/i;

/**
 * True when the document holds a document type declaration anywhere outside comments, CDATA
 * sections and processing instructions. A scan of "everything before the first start tag" is not
 * enough: "<!-- <a -->" before the DOCTYPE would hide it, and both parsers would then read its
 * entity declarations. Linear: one indexOf per markup construct.
 */
export function hasDoctype(xml: string): boolean {
  const skip: [string, string][] = [
    ['<!--', '-->'],
    ['<![CDATA[', ']]>'],
    ['<?', '?>'],
  ];
  let i = 0;
  while ((i = xml.indexOf('<', i)) >= 0) {
    const next = xml.charCodeAt(i + 1);
    if (next !== 0x21 /* ! */ && next !== 0x3f /* ? */) {
      i++;
      continue;
    }
    const open = skip.find(([o]) => xml.startsWith(o, i));
    if (open) {
      const end = xml.indexOf(open[1], i + open[0].length);
      // Unterminated: the parsers refuse it, but do not let a DOCTYPE through behind it.
      if (end < 0) return DOCTYPE_RE.test(xml.slice(i + open[0].length));
      i = end + open[1].length;
    } else if (DOCTYPE_RE.test(xml.slice(i, i + 9))) {
      return true;
    } else {
      i++;
    }
  }
  return false;
}

/** The XML declaration at the very start of the text, if any. */
export function readDeclaration(xml: string): XmlDeclaration | undefined {
  const m = DECL_RE.exec(xml);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  for (const a of m[1]!.matchAll(PSEUDO_ATTR_RE)) out[a[1]!] = a[3] ?? a[4] ?? '';
  return { version: out.version, encoding: out.encoding, standalone: out.standalone, raw: m[0] };
}

type RawNode = Record<string, unknown>;

/** Character data runs at least this long are kept away from fast-xml-parser (liftLongTexts). */
export const LONG_TEXT = 4096;
const LIFT_OPEN = '\u0001';
const LIFT_CLOSE = '\u0002';
const LIFTED_RE = /\u0001(\d+)\u0002/g;
/**
 * fast-xml-parser builds character data one character at a time (a string concatenation per
 * character): a 10 MB text took 2 s and 350 MB. Runs of character data of LONG_TEXT characters or
 * more are cut out of the text before it parses it, a numbered placeholder in their place, and put
 * back (decoded) when the tree is built. Markup is stepped over as the parsers see it: comments,
 * CDATA sections, processing instructions, and tags with their quoted attribute values. A text
 * already holding the placeholder characters (U+0001, U+0002: not allowed in XML) is left as it is.
 */
function liftLongTexts(xml: string): { xml: string; texts: string[] } | undefined {
  // A first look: is there any run between two "<" long enough to matter?
  let long = false;
  for (let i = xml.indexOf('<'), j = 0; ; i = j) {
    j = i < 0 ? -1 : xml.indexOf('<', i + 1);
    if ((j < 0 ? xml.length : j) - Math.max(i, 0) >= LONG_TEXT) {
      long = true;
      break;
    }
    if (j < 0) break;
  }
  if (!long || xml.includes(LIFT_OPEN) || xml.includes(LIFT_CLOSE)) return undefined;
  const texts: string[] = [];
  const parts: string[] = [];
  let copied = 0;
  const lift = (from: number, to: number) => {
    parts.push(xml.slice(copied, from), `${LIFT_OPEN}${texts.length}${LIFT_CLOSE}`);
    texts.push(xml.slice(from, to));
    copied = to;
  };
  let i = xml.indexOf('<');
  // Text before the first markup (outside the root: dropped by the parser, but read a character at a time).
  if ((i < 0 ? xml.length : i) >= LONG_TEXT) lift(0, i < 0 ? xml.length : i);
  while (i >= 0) {
    // The end of the markup construct at i.
    let end: number;
    if (xml.startsWith('<!--', i)) end = xml.indexOf('-->', i + 4) + 3;
    else if (xml.startsWith('<![CDATA[', i)) end = xml.indexOf(']]>', i + 9) + 3;
    else if (xml.startsWith('<?', i)) end = xml.indexOf('?>', i + 2) + 2;
    else {
      let q = '';
      let k = i + 1;
      for (; k < xml.length; k++) {
        const c = xml[k]!;
        if (q) {
          if (c === q) q = '';
        } else if (c === '"' || c === "'") q = c;
        else if (c === '>') break;
      }
      end = k + 1;
    }
    if (end <= i || end > xml.length) break; // unterminated: libxml2 reports it
    const next = xml.indexOf('<', end);
    const stop = next < 0 ? xml.length : next;
    if (stop - end >= LONG_TEXT) lift(end, stop);
    i = next;
  }
  if (texts.length === 0) return undefined;
  parts.push(xml.slice(copied));
  return { xml: parts.join(''), texts };
}

/**
 * Documents of at least this many characters are read by the one-pass reader (scan-reader.ts):
 * the same tree at several times the speed, without fast-xml-parser's intermediate output. Below
 * it, fast-xml-parser (the owner's choice) reads them; its time there is small.
 */
export const SCAN_READER_MIN_CHARS = 256 * 1024;
let scanReaderMinChars = SCAN_READER_MIN_CHARS;

/**
 * Change the size from which the one-pass reader is used (Infinity: never; 0: always), returning
 * the previous one. For the benchmark and the tests that compare both readers.
 */
export function setScanReaderMinChars(chars: number): number {
  const before = scanReaderMinChars;
  scanReaderMinChars = chars;
  return before;
}

/** Which reader parseXml uses: by size (the default), or one of them. */
export type XmlReader = 'auto' | 'fast-xml-parser' | 'scan';

const DOCTYPE_REFUSED =
  'document type declaration (<!DOCTYPE) present: not allowed in these messages, entities are never expanded';

/**
 * Parse a document into a namespace-resolved tree. Throws XmlError with a precise message. A
 * document with a DOCTYPE is refused with a message saying so, whatever else is wrong with it.
 */
export function parseXml(xml: string, reader: XmlReader = 'auto'): ParsedXml {
  if (reader === 'scan' || (reader === 'auto' && xml.length >= scanReaderMinChars)) return scanned(xml);
  if (hasDoctype(xml)) throw new XmlError(DOCTYPE_REFUSED);
  const lifted = liftLongTexts(xml);
  let raw: RawNode[];
  try {
    raw = parser.parse(lifted ? lifted.xml : xml) as RawNode[];
  } catch (e) {
    throw new XmlError(`not well-formed XML: ${(e as Error).message}`);
  }
  const roots = raw.filter(isElement);
  raw.length = 0;
  if (roots.length !== 1)
    throw new XmlError(roots.length === 0 ? 'no root element' : `${roots.length} root elements, expected one`);
  const restore = lifted
    ? (t: string) =>
        t.includes(LIFT_OPEN) ? t.replace(LIFTED_RE, (_, k: string) => decodeText(lifted.texts[Number(k)]!)) : t
    : undefined;
  const root = build(roots[0]!, new Map([['xml', XML_NS]]), [], restore);
  return { root, declaration: readDeclaration(xml) };
}

/**
 * The one-pass reader's tree. It refuses every markup declaration itself, so the DOCTYPE scan (a
 * pass over the text) runs only on a document it refused, to say why as parseXml always has.
 */
function scanned(xml: string, limits?: MarkupLimits): ParsedXml {
  try {
    return { root: scanXml(xml, limits), declaration: readDeclaration(xml) };
  } catch (e) {
    if (!(e instanceof OverLimitError) && hasDoctype(xml)) throw new XmlError(DOCTYPE_REFUSED);
    throw e;
  }
}

/**
 * The tree of a document whose markup is bounded by `limits` (the validator's), or why there is
 * none: over a limit (overLimit's sentence, before anything else), a DOCTYPE, or what parseXml
 * says. The one-pass reader counts what the limits count as it reads, so the markup scan (a pass
 * over the text, 30 ms of a 10 MB answer) runs only on a document it refused, for the sentence;
 * below its size the scan runs first, as the readers need it.
 */
export function readTree(xml: string, limits: MarkupLimits | undefined): { parsed?: ParsedXml; error?: string } {
  const over = () => (limits ? overLimit(scanMarkup(xml), limits) : undefined);
  const scan = xml.length >= scanReaderMinChars;
  if (!scan) {
    const notParsed = over();
    if (notParsed !== undefined) return { error: notParsed };
  }
  try {
    return { parsed: scan ? scanned(xml, limits) : parseXml(xml) };
  } catch (e) {
    const notParsed = scan ? over() : undefined;
    if (notParsed !== undefined) return { error: notParsed };
    return { error: e instanceof XmlError ? e.message : String(e) };
  }
}

/** A marked name without its mark (shared per distinct name). */
const UNMARKED = new Map<string, string>();
function unmark(marked: string): string {
  let n = UNMARKED.get(marked);
  if (n === undefined) {
    n = marked.slice(1);
    if (UNMARKED.size < 4096) UNMARKED.set(marked, n);
  }
  return n;
}

/** Whether a raw node is an element (it has a marked key). */
function isElement(n: RawNode): boolean {
  for (const k in n) if (k.charCodeAt(0) === 1) return true;
  return false;
}

/** Split qualified names by qualified name (one pair of strings per distinct name, not per element). */
const SPLIT = new Map<string, [string, string]>();

function split(qname: string): [string, string] {
  let pair = SPLIT.get(qname);
  if (pair === undefined) {
    const i = qname.indexOf(':');
    pair = i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
    if (SPLIT.size < 4096) SPLIT.set(qname, pair);
  }
  return pair;
}

/**
 * The one empty list every element without attributes or without children shares (most of a large
 * document's elements: one array less each). Frozen: a tree is read, never changed.
 */

/** The path of the element being built, for messages only: joined when an error is thrown. */
function pathOf(stack: readonly string[]): string {
  return `/${stack.join('/')}`;
}

/**
 * Build one element and its descendants. `scope` maps each prefix in scope to its URI ('' for the
 * default namespace) and is shared by the whole walk: an element's declarations are set on entry
 * and the previous bindings put back on return, so a declaration costs the same however many are
 * in scope (copying the scope per declaring element was quadratic: 20,000 declarations on the root
 * and 20,000 children declaring one more took a minute). `stack` holds the qualified names from the
 * root down to this element's parent; it is restored on return.
 */
function build(
  node: RawNode,
  scope: Map<string, string>,
  stack: string[],
  restore?: (text: string) => string,
): XElement {
  let marked = '';
  for (const k in node) {
    if (k.charCodeAt(0) === 1) {
      marked = k;
      break;
    }
  }
  const qname = unmark(marked);
  const rawAttrs = (node[':@'] ?? undefined) as Record<string, string> | undefined;
  // Bindings this element replaced (prefix → previous URI, undefined when there was none).
  let saved: Map<string, string | undefined> | undefined;
  if (rawAttrs) {
    for (const key in rawAttrs) {
      const k = key.slice(1);
      if (k !== 'xmlns' && !k.startsWith('xmlns:')) continue;
      const p = k === 'xmlns' ? '' : k.slice(6);
      saved ??= new Map();
      if (!saved.has(p)) saved.set(p, scope.get(p));
      scope.set(p, rawAttrs[key]!);
    }
  }
  try {
    const [prefix, name] = split(qname);
    stack.push(qname);
    const ns = scope.get(prefix);
    if (ns === undefined && prefix !== '')
      throw new XmlError(`undeclared namespace prefix "${prefix}" on element ${pathOf(stack)}`);
    let attrs: readonly XAttr[] | XAttr[] = NONE;
    if (rawAttrs) {
      for (const key in rawAttrs) {
        const k = key.slice(1);
        if (k === 'xmlns' || k.startsWith('xmlns:')) continue;
        const [ap, al] = split(k);
        const ans = ap === '' ? '' : scope.get(ap);
        if (ans === undefined)
          throw new XmlError(`undeclared namespace prefix "${ap}" on attribute ${k} of ${pathOf(stack)}`);
        if (attrs === NONE) attrs = [];
        (attrs as XAttr[]).push({ ns: ans, local: al, prefix: ap, value: rawAttrs[key]! });
      }
    }
    const kids = node[marked] as RawNode[];
    let children: readonly XElement[] = NONE;
    let text = '';
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i]!;
      // The parser's node is let go once read: its output and the tree are not held whole together.
      (kids as unknown[])[i] = undefined;
      const t = k['#text'];
      if (typeof t === 'string') text += t;
      else if (typeof t === 'number') text += String(t);
      else if (isElement(k)) {
        if (children === NONE) children = [];
        (children as XElement[]).push(build(k, scope, stack, restore));
      }
    }
    stack.pop();
    return { ns: ns ?? '', local: name, prefix, attrs, children, text: restore ? restore(text) : text };
  } finally {
    if (saved) {
      for (const [p, uri] of saved) {
        if (uri === undefined) scope.delete(p);
        else scope.set(p, uri);
      }
    }
  }
}

/** The attribute of that namespace and local name. */
export function attr(el: XElement, local: string, ns = ''): string | undefined {
  for (const a of el.attrs) if (a.local === local && a.ns === ns) return a.value;
  return undefined;
}

/** True when the element carries xsi:nil="true" (or "1"). */
export function isNil(el: XElement): boolean {
  if (el.attrs.length === 0) return false; // most elements: asked of every element by every walk
  const v = attr(el, 'nil', XSI_NS)?.trim();
  return v === 'true' || v === '1';
}

/** Text is whitespace only (XML whitespace: space, tab, CR, LF). */
export function isBlank(s: string): boolean {
  return s === '' || /^[ \t\r\n]*$/.test(s);
}
