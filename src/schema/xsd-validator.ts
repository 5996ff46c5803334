/**
 * libxml2 (through libxmljs2) parse and XSD validation of whole response documents: a SOAP 1.1
 * envelope, a SOAP 1.2 envelope or a bare result root (HTTP GET / HTTP POST), against the project's
 * schemas in schemas/ with the target's namespaces substituted.
 *
 * The schemas it validates against, and the subset each document gets: ./schema-bundle.ts;
 * libxml2's errors (the whitespace bug's dropped, the rest capped): ./libxml-errors.ts.
 *
 * SECURITY: libxmljs2 bundles an old libxml2 (2.9.9) with known flaws in DOM navigation. Target
 * documents are only ever parsed (no entity substitution, no network, no "huge" limits, DOCTYPE
 * refused before parsing) and validated; no navigation method (root(), find(), get(), attrs(),
 * namespaces(), ...) is called on them. Nothing is fetched over the network: every import is a
 * local file.
 */
import libxml, { type Document } from 'libxmljs2';
import type { Namespaces } from '../contract/catalogue.js';
import type { DocumentValidator, LibxmlOutcome, ValidateOptions } from './types.js';
import { schemaBundle } from './schema-bundle.js';
import { whitespaceBugOnly, withErrorCap, type ErrorTally, type LibxmlError } from './libxml-errors.js';
import { hasDoctype } from '../xml/tree.js';
import { MEMO_MAX_CHARS, TextMemo } from '../xml/memo.js';
import { checkBudgetMs, markupLimits, overLimit, scanMarkup } from '../xml/limits.js';
import { validateInProcessOfItsOwn, type ValidatorSetup } from './validator-process.js';

/** Default cap on the size of a validated document. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export interface ValidatorOptions {
  /** Documents larger than this many bytes (UTF-8) are not parsed. Default 32 MiB. */
  readonly maxBytes?: number;
  /** Where the substituted schemas are written; default a directory under os.tmpdir(). */
  readonly cacheDir?: string;
  /**
   * Validate each document against the subset of the schemas it can reach (default true; see
   * SchemaBundle.docFor); false always compiles the whole bundle (the reference the subsets are
   * tested against).
   */
  readonly subsets?: boolean;
}

function where(e: LibxmlError): string {
  const parts = [];
  if (e.line) parts.push(`line ${e.line}`);
  if (e.column) parts.push(`column ${e.column}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function byteLengthOver(xml: string, max: number): number | undefined {
  if (xml.length * 3 <= max) return undefined; // UTF-8 needs at most 3 bytes per UTF-16 unit
  const n = xml.length > max ? xml.length : Buffer.byteLength(xml, 'utf8');
  return n > max ? n : undefined;
}

/** The start of the message of a validation that could not run (its verdict is not memoised). */
const NOT_RUN = 'XSD validation could not run';
/** What a validator's memo of verdicts may hold (texts and verdicts, in characters): see TextMemo. */
const MEMO_BUDGET = 4 * 1024 * 1024;

/**
 * Documents up to this many characters are read in this process; larger ones in a validator process (see
 * validateAsync).
 */
export const IN_PROCESS_MAX_CHARS = 256 * 1024;

/** A validator of whole response documents for one namespace configuration. */
export function createDocumentValidator(namespaces: Namespaces, options: ValidatorOptions = {}): DocumentValidator {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const limits = markupLimits(maxBytes);
  for (const ns of Object.values(namespaces)) {
    // libxml2 keeps "&" of a namespace declaration as "&#38;", so no element would ever match.
    if (ns.includes('&'))
      throw new Error(`namespace ${ns}: libxml2 cannot validate documents whose namespace URI contains "&"`);
  }
  const bundle = schemaBundle(namespaces, options.cacheDir, options.subsets ?? true);
  // libxml2's verdict is a function of the text alone (the schemas are fixed per validator): a text
  // answered again (rejections, repeated lists) is parsed and validated once. A verdict that says the
  // schemas could not be read is an accident of the moment, never kept.
  const memo = new TextMemo<LibxmlOutcome>(MEMO_MAX_CHARS, MEMO_BUDGET, (o) =>
    o.xsdErrors.some((e) => e.message.startsWith(NOT_RUN))
      ? Infinity
      : 64 + o.xsdErrors.length * 256 + (o.wellFormedError?.length ?? 0),
  );

  function validate(xml: string): LibxmlOutcome {
    return memo.get(xml, () => validateOnce(xml));
  }

  function validateOnce(xml: string): LibxmlOutcome {
    if (byteLengthOver(xml, maxBytes) !== undefined) {
      return { wellFormedError: `document larger than ${maxBytes} bytes: not parsed`, xsdErrors: [] };
    }
    if (hasDoctype(xml)) {
      return {
        wellFormedError:
          'document type declaration (<!DOCTYPE) present: not parsed (not allowed in these messages; '
          + 'entities are never expanded)',
        xsdErrors: [],
      };
    }
    const over = overLimit(scanMarkup(xml), limits);
    if (over !== undefined) return { notParsed: over, xsdErrors: [] };
    const tallies = new Map<unknown[], ErrorTally>();
    let doc: Document;
    try {
      doc = withErrorCap(tallies, () => libxml.parseXml(xml, { noent: false, nonet: true, huge: false }));
    } catch (e) {
      const err = e as LibxmlError;
      return { wellFormedError: `${(err.message ?? String(e)).trim()}${where(err)}`, xsdErrors: [] };
    }
    // Namespace well-formedness errors (an undeclared prefix...) do not stop libxml2's parser.
    const nsError = (doc.errors as unknown as LibxmlError[]).find((e) => (e.level ?? 0) >= 2);
    if (nsError) return { wellFormedError: `${(nsError.message ?? '').trim()}${where(nsError)}`, xsdErrors: [] };

    let valid: boolean;
    try {
      const schema = bundle.docFor(xml);
      bundle.ensureFiles(schema);
      valid = withErrorCap(tallies, () => doc.validate(schema));
    } catch (e) {
      return { xsdErrors: [{ message: `${NOT_RUN} (schemas in ${bundle.dir}): ${(e as Error).message}` }] };
    }
    if (valid) return { xsdErrors: [] };
    const reported = doc.validationErrors as unknown as LibxmlError[];
    const tally = tallies.get(reported);
    const more = tally?.dropped ?? 0;
    const extra = more
      ? { moreXsdErrors: more, moreXsdErrorsByCode: [...tally!.byCode].map(([code, count]) => ({ code, count })) }
      : {};
    const all = reported.filter((e) => (e.level ?? 2) >= 2);
    const errors = all.filter((e) => !whitespaceBugOnly(e));
    if (all.length > 0 && errors.length === 0 && more === 0) return { xsdErrors: [] };
    const xsdErrors = errors.map((e) => ({
      message: (e.message ?? 'invalid').trim(),
      ...(e.line ? { line: e.line } : {}),
      ...(e.column ? { column: e.column } : {}),
      ...(e.code ? { code: e.code } : {}),
    }));
    if (xsdErrors.length === 0)
      return { xsdErrors: [{ message: 'the document is not valid against the schemas' }], ...extra };
    return { xsdErrors, ...extra };
  }

  const setup: ValidatorSetup = { namespaces, maxBytes, cacheDir: options.cacheDir, subsets: options.subsets ?? true };
  return {
    validate,
    limits,
    async validateAsync(xml: string, opts: ValidateOptions = {}): Promise<LibxmlOutcome> {
      if (xml.length <= IN_PROCESS_MAX_CHARS) return validate(xml);
      return validateInProcessOfItsOwn(setup, xml, {
        budgetMs: opts.budgetMs ?? checkBudgetMs(opts.utf8?.length ?? Buffer.byteLength(xml)),
        signal: opts.signal,
        handedOver: opts.handedOver,
        utf8: opts.utf8,
      });
    },
  };
}
