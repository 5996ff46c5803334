/**
 * What the libxml2 validator of this folder answers about a document, and how it is asked: the
 * checks read these through their context (src/checks/context.ts).
 */
import type { MarkupLimits } from '../xml/limits.js';

/** One XSD error as libxml2 reported it. */
export interface XsdError {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** libxml2's error code (e.g. 1824: a value not valid for its atomic type). */
  readonly code?: number;
}

/** Result of parsing and XSD-validating one document with libxml2 (./xsd-validator.ts). */
export interface LibxmlOutcome {
  /** Set when libxml2 finds the document not well-formed: the parser's message with line and column. */
  readonly wellFormedError?: string;
  /**
   * Set when the document was not read at all: it is over one of the limits of src/xml/limits.ts,
   * or reading it took longer than its budget or the run's deadline allowed. Says which and why.
   */
  readonly notParsed?: string;
  /** XSD errors; empty when valid (or when not well-formed). At most the first ones are kept: see `moreXsdErrors`. */
  readonly xsdErrors: readonly XsdError[];
  /** XSD errors libxml2 reported beyond those kept in `xsdErrors` (a document can hold millions). */
  readonly moreXsdErrors?: number;
  /** The same, by libxml2 error code. */
  readonly moreXsdErrorsByCode?: readonly { readonly code: number; readonly count: number }[];
}

/** How long reading a document may take, and when to give up regardless (the run's deadline). */
export interface ValidateOptions {
  readonly budgetMs?: number;
  readonly signal?: AbortSignal;
  /**
   * Called once the whole document has been handed to a validator process (never when it is read
   * in this process): from then on this process is free to work beside libxml2.
   */
  readonly handedOver?: () => void;
  /**
   * The UTF-8 bytes the document was decoded from (a BOM included or not): a validator process is
   * sent these, which it decodes as this process did, instead of the decoded text, twice their size
   * when any character is beyond Latin-1 (a 10 MB answer: 10 ms less to serialise, half the pipe).
   */
  readonly utf8?: Uint8Array;
}

/** Validates a whole response document (SOAP envelope or bare result root) against the schemas. */
export interface DocumentValidator {
  validate(xml: string): LibxmlOutcome;
  /**
   * The same without blocking the event loop for long: a large document is read in a process of
   * its own, stopped when it takes longer than the budget or the signal aborts.
   */
  validateAsync?(xml: string, options?: ValidateOptions): Promise<LibxmlOutcome>;
  /** What the readers are asked to do at most (src/xml/limits.ts): the tree reader applies them too. */
  readonly limits?: MarkupLimits;
}
