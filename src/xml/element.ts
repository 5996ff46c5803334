/**
 * The namespace-resolved element tree both readers build (tree.ts from fast-xml-parser's output,
 * scan-reader.ts in one pass), and what they share: its own file so neither reader imports the other
 * for its shape (tree.ts calls the scan reader for large answers).
 */

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** The empty attribute or child list every element without any shares (frozen: never pushed to). */
export const NONE: readonly never[] = Object.freeze([]);

export interface XAttr {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  readonly value: string;
}

export interface XElement {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /** Attributes other than namespace declarations, in document order. */
  readonly attrs: readonly XAttr[];
  readonly children: readonly XElement[];
  /** Direct text content, concatenated (CDATA included), untrimmed. */
  text: string;
}
