/**
 * What the XML readers are asked to do, bounded before either starts. libxml2 2.9 spends time that
 * grows faster than the document on some shapes (its duplicate check is quadratic in the attributes
 * of one element, and every element's namespace is looked up through every declaration in scope),
 * and both readers hold a few hundred bytes per element and attribute. One linear scan of the text
 * counts what those costs depend on; a document over a limit is read by neither reader, and
 * xml_wellformed reports the limit it broke. A conforming answer comes nowhere near them.
 */

/** Attributes and namespace declarations on one element, at most. */
export const MAX_ATTRIBUTES_PER_ELEMENT = 256;
/** Namespace declarations in scope at any element, at most. */
export const MAX_NAMESPACES_IN_SCOPE = 256;
/** Bytes of document per element or attribute allowed: a cap of 32 MiB allows 2,097,152 of them. */
export const BYTES_PER_NODE = 16;

/**
 * How long reading or checking a document of `bytes` bytes may take: 10 s, plus 1 s per MiB. libxml2
 * is stopped when it takes longer; a check that does is reported (a finding of its own).
 */
export function checkBudgetMs(bytes: number): number {
  return 10_000 + Math.ceil((bytes / (1024 * 1024)) * 1000);
}

/** The limits for documents of at most `maxBytes` bytes. */
export interface MarkupLimits {
  readonly attributesPerElement: number;
  readonly namespacesInScope: number;
  /** Elements and attributes (namespace declarations included) in the whole document. */
  readonly nodes: number;
}

export function markupLimits(maxBytes: number): MarkupLimits {
  return {
    attributesPerElement: MAX_ATTRIBUTES_PER_ELEMENT,
    namespacesInScope: MAX_NAMESPACES_IN_SCOPE,
    nodes: Math.max(65_536, Math.floor(maxBytes / BYTES_PER_NODE)),
  };
}

/** What the scan counted. Lines are 1-based; names are as written (prefix included). */
export interface MarkupStats {
  readonly elements: number;
  readonly attributes: number;
  readonly mostAttributes: { readonly count: number; readonly element: string; readonly line: number };
  readonly mostNamespaces: { readonly count: number; readonly element: string; readonly line: number };
}

const SKIPS: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
];

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Count elements, attributes, the most attributes on one element and the most namespace
 * declarations in scope, in one pass over the text (markup inside comments, CDATA sections and
 * processing instructions is skipped; quoted attribute values are jumped over). The scan does not
 * judge well-formedness (libxml2 does): on broken markup its counts are a best effort.
 */
export function scanMarkup(xml: string): MarkupStats {
  let elements = 0;
  let attributes = 0;
  // The element holding the most, by offsets: its name is cut from the text once, at the end.
  let mostCount = -1;
  let mostAt = 0;
  let mostEnd = 0;
  let mostNsCount = -1;
  let mostNsAt = 0;
  let mostNsEnd = 0;
  const declared: number[] = []; // namespace declarations of each open element
  let open = 0;
  let inScope = 0;
  let i = 0;
  const n = xml.length;
  while ((i = xml.indexOf('<', i)) >= 0) {
    const next = xml.charCodeAt(i + 1);
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const skip = SKIPS.find(([o]) => xml.startsWith(o, i));
      const end = skip ? xml.indexOf(skip[1], i + skip[0].length) : xml.indexOf('>', i + 2);
      if (end < 0) break;
      i = end + (skip ? skip[1].length : 1);
      continue;
    }
    if (next === 0x2f /* / */) {
      if (open > 0) inScope -= declared[--open]!;
      const end = xml.indexOf('>', i + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    // A start tag: its name, then attributes up to ">" or "/>".
    const start = i;
    let j = i + 1;
    while (j < n) {
      const c = xml.charCodeAt(j);
      // Most characters of a name are past '>' (0x3e), above every character that ends it: one comparison.
      if (c <= 0x3e && (isSpace(c) || c === 0x3e /* > */ || c === 0x2f) /* / */) break;
      j++;
    }
    const nameEnd = j;
    let count = 0;
    let decls = 0;
    let empty = false;
    let closed = false;
    while (j < n) {
      const c = xml.charCodeAt(j);
      if (isSpace(c)) {
        j++;
        continue;
      }
      if (c === 0x3e /* > */) {
        closed = true;
        j++;
        break;
      }
      if (c === 0x2f /* / */ && xml.charCodeAt(j + 1) === 0x3e) {
        closed = true;
        empty = true;
        j += 2;
        break;
      }
      // An attribute: name, "=", quoted value.
      const nameStart = j;
      while (j < n) {
        const m = xml.charCodeAt(j);
        if (m <= 0x3e && (m === 0x3d /* = */ || m === 0x3e /* > */ || isSpace(m))) break;
        j++;
      }
      const attrEnd = j;
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      if (xml.charCodeAt(j) !== 0x3d) break; // broken markup: libxml2 will say so
      j++;
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      const q = xml.charCodeAt(j);
      if (q !== 0x22 && q !== 0x27) break;
      const close = xml.indexOf(q === 0x22 ? '"' : "'", j + 1);
      if (close < 0) {
        j = n;
        break;
      }
      j = close + 1;
      count++;
      // xmlns or xmlns:*
      if (
        xml.startsWith('xmlns', nameStart)
        && (attrEnd - nameStart === 5 || (attrEnd - nameStart > 5 && xml.charCodeAt(nameStart + 5) === 0x3a))
      )
        decls++;
    }
    elements++;
    attributes += count;
    if (count > mostCount) {
      mostCount = count;
      mostAt = start;
      mostEnd = nameEnd;
    }
    if (inScope + decls > mostNsCount) {
      mostNsCount = inScope + decls;
      mostNsAt = start;
      mostNsEnd = nameEnd;
    }
    if (!empty && closed) {
      declared[open++] = decls;
      inScope += decls;
    }
    i = closed ? j : Math.max(j, i + 1);
  }
  const lines = lineCounter(xml);
  return {
    elements,
    attributes,
    mostAttributes: {
      count: Math.max(0, mostCount),
      element: mostCount < 0 ? '' : xml.slice(mostAt + 1, mostEnd),
      line: lines(mostAt),
    },
    mostNamespaces: {
      count: Math.max(0, mostNsCount),
      element: mostNsCount < 0 ? '' : xml.slice(mostNsAt + 1, mostNsEnd),
      line: lines(mostNsAt),
    },
  };
}

/** Line numbers of offsets asked for in any order, each counted once from the start (two calls here). */
function lineCounter(text: string): (offset: number) => number {
  return (offset) => {
    let line = 1;
    for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) line++;
    return line;
  };
}

/** Why a document is over a limit (a sentence for a finding), or undefined when it is within them. */
export function overLimit(stats: MarkupStats, limits: MarkupLimits): string | undefined {
  const a = stats.mostAttributes;
  if (a.count > limits.attributesPerElement) {
    return (
      `element <${shownName(a.element)}> (line ${a.line}) has ${a.count.toLocaleString('en-US')} `
      + `attributes and namespace declarations: `
      + `more than the ${limits.attributesPerElement} this harness reads on one element (libxml2 checks `
      + `them for duplicates in quadratic time); the document was not parsed`
    );
  }
  const ns = stats.mostNamespaces;
  if (ns.count > limits.namespacesInScope) {
    return (
      `${ns.count.toLocaleString('en-US')} namespace declarations are in scope at element `
      + `<${shownName(ns.element)}> (line ${ns.line}): `
      + `more than the ${limits.namespacesInScope} this harness reads (libxml2 searches every one of them `
      + `for each element's prefix); the document was not parsed`
    );
  }
  const nodes = stats.elements + stats.attributes;
  if (nodes > limits.nodes) {
    return (
      `the document has ${stats.elements.toLocaleString('en-US')} elements `
      + `and ${stats.attributes.toLocaleString('en-US')} attributes: `
      + `more than the ${limits.nodes.toLocaleString('en-US')} this harness reads in one document (one `
      + `per ${BYTES_PER_NODE} bytes of --max-body-bytes; `
      + 'each costs a few hundred bytes of memory in each reader); the document was not parsed'
    );
  }
  return undefined;
}

/** An element name from the target, cut for a message. */
function shownName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}
