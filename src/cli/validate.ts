/**
 * `conformance validate FILE [--type NAME] [--operation OP] [--binding B] [--book-ns URI] [--search-ns URI]`:
 * check one captured XML document (a response body saved from a log, a recording, a bug report)
 * with the harness's own document checks: well-formedness and encoding, SOAP framing, the result
 * element, the XSDs (libxml2) and the shape walk of the type model, with paths.
 *
 * What the document is comes from the flags or from the document: a SOAP envelope gives the binding
 * (its version) and the operation (<Operation>Response in the Body); a bare root gives the operation
 * by its result element name (HTTP GET/POST). With --type NAME the root element (in an envelope: the
 * element inside the Body's first child) is walked as that model type, and XSD-validated when it is
 * a global element of the schemas. Exit 0 valid, 1 invalid, 2 bad usage (no file, unknown name,
 * a document whose kind cannot be told).
 */
import { readFileSync } from 'node:fs';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS, type BindingId, type Namespaces, type Operation } from '../contract/catalogue.js';
import { MODEL, SIMPLE_TYPES } from '../contract/model.js';
import { CheckContext } from '../checks/context.js';
import { runChecks, selectChecks } from '../checks/registry.js';
import { shapeFindings } from '../checks/shape.js';
import { xsdDefectCode } from '../checks/xsd-valid.js';
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { Finding } from '../core/types.js';
import { consoleText } from '../report/model.js';
import { parseXml, type XElement } from '../xml/tree.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { binding as bindingModule, bindingLabel, documentBinding } from '../bindings/index.js';
import { helpText, parseFlags } from './config.js';
import { VALIDATE_HELP } from './help.js';
import type { CommandIO } from './run.js';

export const VALIDATE_USAGE = `usage: conformance validate FILE [--type NAME] [--operation OP] [--binding soap11|soap12|get|post]
    [--book-ns URI] [--search-ns URI]

Checks one XML document against the schemas (XSD, libxml2) and the type model (shape walk), with the
framing checks of its binding. The operation and binding are read from the document (SOAP envelope
version and <Operation>Response, or the result element at the root) unless given; --type NAME walks
the root element as that model type instead. The namespaces default to the mock's (also
CONFORMANCE_BOOK_NS, CONFORMANCE_SEARCH_NS). Exit 0 valid, 1 invalid, 2 bad usage.`;

/** The document checks, in run order (status and media type need an HTTP response: not here). */
const DOCUMENT_CHECKS = ['xml_wellformed', 'soap_envelope', 'result_element', 'xsd_valid', 'shape', 'binding_rules'];

const NO_GLOBAL_DECLARATION = /No matching global (element )?declaration available for the validation root/i;

function nsFlag(v: string | undefined, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v)) throw new UsageError(`${what} must be an absolute URI (got ${JSON.stringify(v)})`);
  return v;
}


interface Inferred {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly how: string;
}

/** Operation and binding of a document, from the flags or its root. */
function infer(root: XElement | undefined, ns: Namespaces, opFlag: Operation | undefined, bFlag: BindingId | undefined, file: string): Inferred {
  const found = documentBinding(root);
  const enveloped = bindingModule(found).envelopeNs !== undefined;
  const binding: BindingId = bFlag ?? found;
  const bHow = bFlag ? 'given' : enveloped ? `the ${bindingLabel(binding)} envelope` : 'HTTP GET (a bare root: GET and POST answer alike)';
  if (opFlag) return { op: opFlag, binding, how: `operation given, binding ${bHow}` };
  if (!root) throw new Error('unreachable: a document that does not parse needs --operation');
  if (enveloped) {
    const b = bindingModule(found);
    const first = b.wrapperIn(root);
    const op = first && OPERATIONS.find((o) => b.wrapperOf(o) === first.local);
    if (!op) {
      throw new UsageError(`${file}: cannot tell the operation: the SOAP Body holds ${first ? `<${first.local}>` : 'nothing'}, not an <Operation>Response of the catalogue; pass --operation`);
    }
    return { op, binding, how: `<${first!.local}> in a ${bindingLabel(found)} envelope` };
  }
  const candidates = OPERATIONS.filter((o) => o.resultElement === root.local && (root.ns === ns[o.ns] || !Object.values(ns).includes(root.ns)));
  if (candidates.length === 1) return { op: candidates[0]!, binding, how: `root <${root.local}> (result of ${candidates[0]!.name}), binding ${bHow}` };
  if (candidates.length > 1) throw new UsageError(`${file}: <${root.local}> is the result element of ${candidates.map((o) => o.name).join(' and ')}: pass --operation`);
  throw new UsageError(`${file}: cannot tell what <${root.local}> is: not a SOAP envelope and not the result element of an operation; pass --operation or --type`);
}

function formatFinding(f: Finding): string {
  const extra = [f.expected !== undefined ? `expected ${f.expected}` : '', f.actual !== undefined ? `got ${f.actual}` : ''].filter(Boolean).join(', ');
  return consoleText(`✗ ${f.check} at ${f.path || '/'}: ${f.message}${extra ? ` (${extra})` : ''}`);
}

export const VALIDATE_OPTIONS = {
  type: { type: 'string' }, operation: { type: 'string' }, binding: { type: 'string' },
  'book-ns': { type: 'string' }, 'search-ns': { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

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
  /** What the document was checked as ("GetMeals result, SOAP 1.2 (...)"); undefined when it did not parse and nothing said what it is. */
  readonly what?: string;
  /** Set when the document is not well-formed XML (or not decodable): the parser's message. */
  readonly parseError?: string;
  /** Each finding with its check, defect code and path. */
  readonly findings: Finding[];
  /** Checks that could not run, and why. */
  readonly notes: string[];
}

/** The options checked: namespaces absolute URIs, type, operation and binding known names (UsageError otherwise). */
function checkedOptions(options: ValidateDocumentOptions): { namespaces: Namespaces; type?: string; opFlag?: Operation } {
  const namespaces: Namespaces = {
    book: nsFlag(options.namespaces?.book, '--book-ns') ?? DEFAULT_NAMESPACES.book,
    search: nsFlag(options.namespaces?.search, '--search-ns') ?? DEFAULT_NAMESPACES.search,
  };
  const type = options.type;
  if (type !== undefined && !MODEL.has(type) && !(SIMPLE_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`unknown type "${type}"${didYouMean(type, [...MODEL.keys()])} (types: ${[...MODEL.keys()].join(', ')})`);
  }
  const opFlag = options.operation === undefined ? undefined
    : findOperation(options.operation) ?? (() => { throw new UsageError(`unknown operation "${options.operation}"${didYouMean(options.operation!, OPERATIONS.map((o) => o.name))}`); })();
  if (options.binding !== undefined && !(BINDINGS as readonly string[]).includes(options.binding)) {
    throw new UsageError(`unknown binding "${options.binding}" (bindings: ${BINDINGS.join(', ')})`);
  }
  if (type !== undefined && (opFlag || options.binding)) throw new UsageError('--type checks one element as a model type: it does not combine with --operation or --binding');
  return { namespaces, type, opFlag };
}

/**
 * Run the document checks of a run on one document: well-formedness and encoding, SOAP framing, the
 * result element, XSD (libxml2) and the shape walk. Throws a UsageError for an unknown type,
 * operation or binding, or a document whose kind cannot be told.
 */
export function validateDocument(document: Uint8Array | string, options: ValidateDocumentOptions = {}): DocumentValidation {
  const file = options.source ?? 'document';
  const { namespaces, type, opFlag } = checkedOptions(options);
  const bytes = typeof document === 'string' ? Buffer.from(document, 'utf8') : Buffer.from(document.buffer, document.byteOffset, document.byteLength);
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
      findings.push({ check: 'namespace', code: 'wrong_namespace', path, message: `element ${el.local} is in ${el.ns ? `namespace ${el.ns}` : 'no namespace'}, neither the book nor the search namespace`,
        expected: `${namespaces.book} or ${namespaces.search}`, actual: el.ns || '(none)' });
      ns = el.ns;
    }
    findings.push(...shapeFindings(el, type, path, ns, { namespaces }));
    const xsd = validator.validate(text);
    if (xsd.wellFormedError) findings.push({ check: 'xml_wellformed', code: 'not_well_formed', path: '/', message: xsd.wellFormedError });
    else if (xsd.xsdErrors.some((e) => NO_GLOBAL_DECLARATION.test(e.message))) notes.push(`xsd_valid: not run: <${root.local}> is not a global element of the schemas (checked with the type model only)`);
    else findings.push(...xsd.xsdErrors.map((e) => ({ check: 'xsd_valid', code: xsdDefectCode(e.message), path: e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ''}` : '/', message: e.message })));
    what = `<${el.local}> as type ${type}`;
  } else {
    if (!root && !opFlag) {
      // Whatever it was meant to be, a document that does not parse is invalid.
      return { valid: false, parseError, findings: [{ check: 'xml_wellformed', code: 'not_well_formed', path: '/', message: parseError ?? 'not well-formed' }], notes };
    }
    const inf = infer(root, namespaces, opFlag, options.binding, file);
    const b = bindingModule(inf.binding);
    const ctx = new CheckContext({
      op: inf.op, binding: inf.binding, caseId: 'validate', caseKind: 'valid', namespaces, validator,
      exchange: {
        request: { method: 'POST', url: 'http://validate.invalid/', headers: {} },
        // No charset on the "wire": the document's own declaration decides its encoding.
        response: { status: 200, headers: { 'content-type': b.responseMediaType }, body: bytes, elapsedMs: 0 },
      },
    });
    findings = [];
    for (const r of runChecks(ctx, selectChecks(DOCUMENT_CHECKS.filter((n) => selectChecks().some((c) => c.name === n))))) {
      if (Array.isArray(r.outcome)) findings.push(...r.outcome);
      else if ('skipped' in r.outcome) notes.push(`${r.check.name}: not run: ${r.outcome.skipped}`);
    }
    what = `${inf.op.name} result, ${bindingLabel(inf.binding)} (${inf.how})`;
  }
  return { valid: findings.length === 0, what, ...(parseError !== undefined ? { parseError } : {}), findings, notes };
}

export async function validateCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, VALIDATE_OPTIONS, true);
  if (f.help) {
    io.out(helpText(VALIDATE_USAGE, VALIDATE_OPTIONS, VALIDATE_HELP));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`validate needs exactly one FILE (got ${positionals.length})`);
  const file = positionals[0]!;
  const options: ValidateDocumentOptions = {
    type: f.type, operation: f.operation, binding: f.binding as BindingId | undefined, source: file,
    namespaces: { book: f['book-ns'] ?? io.env.CONFORMANCE_BOOK_NS, search: f['search-ns'] ?? io.env.CONFORMANCE_SEARCH_NS },
  };
  checkedOptions(options); // bad names are bad usage before the file is read
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const r = validateDocument(bytes, options);
  if (r.what === undefined) {
    if (f.type !== undefined) {
      io.out(`${file}: not well-formed XML: ${r.parseError}`);
      io.out('INVALID');
    } else {
      io.out(consoleText(`${file}: not well-formed XML (pass --operation and --binding for the full checks)`));
      io.out(formatFinding(r.findings[0]!));
      io.out('INVALID: 1 finding (xml_wellformed 1)');
    }
    return 1;
  }
  io.out(consoleText(`${file}: ${r.what}`));
  for (const x of r.findings) io.out(formatFinding(x));
  for (const n of r.notes) io.out(consoleText(`  note: ${n}`));
  if (r.valid) {
    io.out('VALID');
    return 0;
  }
  const byCheck = new Map<string, number>();
  for (const x of r.findings) byCheck.set(x.check, (byCheck.get(x.check) ?? 0) + 1);
  io.out(`INVALID: ${r.findings.length} finding${r.findings.length > 1 ? 's' : ''} (${[...byCheck].map(([k, n]) => `${k} ${n}`).join(', ')})`);
  return 1;
}

/** The encoding to read the bytes in: BOM, else the XML declaration, else UTF-8. */
function encodingOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const decl = /^(?:\xEF\xBB\xBF)?<\?xml[^?]*encoding\s*=\s*["']([^"']+)["']/.exec(bytes.subarray(0, 200).toString('latin1'));
  try {
    return decl ? new TextDecoder(decl[1]!).encoding : 'utf-8';
  } catch {
    return 'utf-8';
  }
}
