/**
 * One captured XML document checked with the harness's own document checks: well-formedness and
 * encoding, SOAP framing, the result element, the XSDs (libxml2) and the shape walk of the type
 * model, with paths. What the document is comes from the options or from the document: a SOAP
 * envelope gives the binding (its version) and the operation (<Operation>Response in the Body); a
 * bare root gives the operation by its result element name (HTTP GET/POST). Beneath the CLI:
 * `conformance validate` and the library's validateDocument both call it.
 */
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  findOperation,
  OPERATIONS,
  type BindingId,
  type Namespaces,
  type Operation,
} from '../contract/catalogue.js';
import { MODEL, SIMPLE_TYPES } from '../contract/model.js';
import { CheckContext } from '../checks/context.js';
import { DOCUMENT_CHECKS, runChecks } from '../checks/registry.js';
import { shapeFindings } from '../checks/shape-walk.js';
import { xsdDefectCode } from '../checks/xsd-valid.js';
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { Finding } from '../core/types.js';
import { parseXml, type XElement } from '../xml/tree.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { binding as bindingModule, bindingLabel, documentBinding } from '../bindings/index.js';

const NO_GLOBAL_DECLARATION = /No matching global (element )?declaration available for the validation root/i;

function nsFlag(v: string | undefined, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v))
    throw new UsageError(`${what} must be an absolute URI (got ${JSON.stringify(v)})`);
  return v;
}

interface Inferred {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly how: string;
}

/** Operation and binding of a document, from the flags or its root. */
function infer(
  root: XElement | undefined,
  ns: Namespaces,
  opFlag: Operation | undefined,
  bFlag: BindingId | undefined,
  file: string,
): Inferred {
  const found = documentBinding(root);
  const enveloped = bindingModule(found).envelopeNs !== undefined;
  const binding: BindingId = bFlag ?? found;
  const bHow = bFlag
    ? 'given'
    : enveloped
      ? `the ${bindingLabel(binding)} envelope`
      : 'HTTP GET (a bare root: GET and POST answer alike)';
  if (opFlag) return { op: opFlag, binding, how: `operation given, binding ${bHow}` };
  if (!root) throw new Error('unreachable: a document that does not parse needs --operation');
  if (enveloped) {
    const b = bindingModule(found);
    const first = b.wrapperIn(root);
    const op = first && OPERATIONS.find((o) => b.wrapperOf(o) === first.local);
    if (!op) {
      throw new UsageError(
        `${file}: cannot tell the operation: the SOAP Body `
          + `holds ${first ? `<${first.local}>` : 'nothing'}, not an <Operation>Response of the catalogue; `
          + `pass --operation`,
      );
    }
    return { op, binding, how: `<${first!.local}> in a ${bindingLabel(found)} envelope` };
  }
  const candidates = OPERATIONS.filter(
    (o) => o.resultElement === root.local && (root.ns === ns[o.ns] || !Object.values(ns).includes(root.ns)),
  );
  if (candidates.length === 1)
    return {
      op: candidates[0]!,
      binding,
      how: `root <${root.local}> (result of ${candidates[0]!.name}), binding ${bHow}`,
    };
  if (candidates.length > 1)
    throw new UsageError(
      `${file}: <${root.local}> is the result element `
        + `of ${candidates.map((o) => o.name).join(' and ')}: pass --operation`,
    );
  throw new UsageError(
    `${file}: cannot tell what <${root.local}> is: not a SOAP envelope and not the result element of an `
      + `operation; pass --operation or --type`,
  );
}

/** What to check a document as; everything is optional (read from the document when not given). */
export interface ValidateDocumentOptions {
  /** Walk the root element (in an envelope: the element inside the Body's first child) as this model type. */
  readonly type?: string;
  /** The operation whose result the document is (default: read from the document). */
  readonly operation?: string;
  /** The binding that carried it (default: read from the document: an envelope's version, a bare root is GET). */
  readonly binding?: BindingId;
  /** The target's namespaces (default: the mock's). */
  readonly namespaces?: Partial<Namespaces>;
  /** Names the document in messages (a file name). */
  readonly source?: string;
}

/** The outcome of validateDocument. */
export interface DocumentValidation {
  readonly valid: boolean;
  /**
   * What the document was checked as ("GetMeals result, SOAP 1.2 (...)"); undefined when it did not parse and nothing
   * said what it is.
   */
  readonly what?: string;
  /** Set when the document is not well-formed XML (or not decodable): the parser's message. */
  readonly parseError?: string;
  /** Each finding with its check, defect code and path. */
  readonly findings: Finding[];
  /** Checks that could not run, and why. */
  readonly notes: string[];
}

/** The options checked: namespaces absolute URIs, type, operation and binding known names (UsageError otherwise). */
export function checkedOptions(options: ValidateDocumentOptions): {
  namespaces: Namespaces;
  type?: string;
  opFlag?: Operation;
} {
  const namespaces: Namespaces = {
    book: nsFlag(options.namespaces?.book, '--book-ns') ?? DEFAULT_NAMESPACES.book,
    search: nsFlag(options.namespaces?.search, '--search-ns') ?? DEFAULT_NAMESPACES.search,
  };
  const type = options.type;
  if (type !== undefined && !MODEL.has(type) && !(SIMPLE_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      `unknown type "${type}"${didYouMean(type, [...MODEL.keys()])} (types: ${[...MODEL.keys()].join(', ')})`,
    );
  }
  const opFlag =
    options.operation === undefined
      ? undefined
      : (findOperation(options.operation)
        ?? (() => {
          throw new UsageError(
            `unknown operation "${options.operation}"${didYouMean(
              options.operation!,
              OPERATIONS.map((o) => o.name),
            )}`,
          );
        })());
  if (options.binding !== undefined && !(BINDINGS as readonly string[]).includes(options.binding)) {
    throw new UsageError(`unknown binding "${options.binding}" (bindings: ${BINDINGS.join(', ')})`);
  }
  if (type !== undefined && (opFlag || options.binding))
    throw new UsageError(
      '--type checks one element as a model type: it does not combine with --operation or --binding',
    );
  return { namespaces, type, opFlag };
}

/**
 * Run the document checks of a run on one document: well-formedness and encoding, SOAP framing, the
 * result element, XSD (libxml2) and the shape walk. Throws a UsageError for an unknown type,
 * operation or binding, or a document whose kind cannot be told.
 */
export function validateDocument(
  document: Uint8Array | string,
  options: ValidateDocumentOptions = {},
): DocumentValidation {
  const file = options.source ?? 'document';
  const { namespaces, type, opFlag } = checkedOptions(options);
  const bytes =
    typeof document === 'string'
      ? Buffer.from(document, 'utf8')
      : Buffer.from(document.buffer, document.byteOffset, document.byteLength);
  let root: XElement | undefined;
  let parseError: string | undefined;
  let text: string | undefined;
  try {
    text = new TextDecoder(encodingOf(bytes), { fatal: true }).decode(bytes);
    root = parseXml(text).root;
  } catch (e) {
    parseError = (e as Error).message;
  }
  const validator = createDocumentValidator(namespaces);

  let findings: Finding[];
  let what: string;
  const notes: string[] = [];
  if (type !== undefined) {
    if (!root || text === undefined) return { valid: false, parseError, findings: [], notes };
    const b = bindingModule(documentBinding(root));
    const envelope = b.envelopeNs !== undefined;
    const wrapper = envelope ? b.wrapperIn(root) : undefined;
    const el = envelope ? wrapper?.children[0] : root;
    const path = envelope ? `/Envelope/Body/${wrapper?.local}/${el?.local}` : `/${root.local}`;
    if (!el) throw new UsageError(`${file}: the SOAP Body holds no element inside its first child to check as ${type}`);
    findings = [];
    let ns = el.ns;
    if (el.ns !== namespaces.book && el.ns !== namespaces.search) {
      findings.push({
        check: 'namespace',
        code: 'wrong_namespace',
        path,
        message:
          `element ${el.local} is in ${el.ns ? `namespace ${el.ns}` : 'no namespace'}, neither the book `
          + `nor the search namespace`,
        expected: `${namespaces.book} or ${namespaces.search}`,
        actual: el.ns || '(none)',
      });
      ns = el.ns;
    }
    findings.push(...shapeFindings(el, type, path, ns, { namespaces }));
    const xsd = validator.validate(text);
    if (xsd.wellFormedError)
      findings.push({ check: 'xml_wellformed', code: 'not_well_formed', path: '/', message: xsd.wellFormedError });
    else if (xsd.xsdErrors.some((e) => NO_GLOBAL_DECLARATION.test(e.message)))
      notes.push(
        `xsd_valid: not run: <${root.local}> is not a global element of the schemas (checked with the type model only)`,
      );
    else
      findings.push(
        ...xsd.xsdErrors.map((e) => ({
          check: 'xsd_valid',
          code: xsdDefectCode(e.message),
          path: e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ''}` : '/',
          message: e.message,
        })),
      );
    what = `<${el.local}> as type ${type}`;
  } else {
    if (!root && !opFlag) {
      // Whatever it was meant to be, a document that does not parse is invalid.
      return {
        valid: false,
        parseError,
        findings: [
          { check: 'xml_wellformed', code: 'not_well_formed', path: '/', message: parseError ?? 'not well-formed' },
        ],
        notes,
      };
    }
    const inf = infer(root, namespaces, opFlag, options.binding, file);
    const b = bindingModule(inf.binding);
    const ctx = new CheckContext({
      op: inf.op,
      binding: inf.binding,
      caseId: 'validate',
      caseKind: 'valid',
      namespaces,
      validator,
      exchange: {
        request: { method: 'POST', url: 'http://validate.invalid/', headers: {} },
        // No charset on the "wire": the document's own declaration decides its encoding.
        response: { status: 200, headers: { 'content-type': b.responseMediaType }, body: bytes, elapsedMs: 0 },
      },
    });
    findings = [];
    for (const r of runChecks(ctx, DOCUMENT_CHECKS)) {
      if (Array.isArray(r.outcome)) findings.push(...r.outcome);
      else if ('skipped' in r.outcome) notes.push(`${r.check.name}: not run: ${r.outcome.skipped}`);
    }
    what = `${inf.op.name} result, ${bindingLabel(inf.binding)} (${inf.how})`;
  }
  return { valid: findings.length === 0, what, ...(parseError !== undefined ? { parseError } : {}), findings, notes };
}

/** The encoding to read the bytes in: BOM, else the XML declaration, else UTF-8. */
function encodingOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const decl = /^(?:\xEF\xBB\xBF)?<\?xml[^?]*encoding\s*=\s*["']([^"']+)["']/.exec(
    bytes.subarray(0, 200).toString('latin1'),
  );
  try {
    return decl ? new TextDecoder(decl[1]!).encoding : 'utf-8';
  } catch {
    return 'utf-8';
  }
}
