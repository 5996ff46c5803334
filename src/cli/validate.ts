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
 */import { readFileSync } from 'node:fs';
import type { BindingId } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import { checkedOptions, validateDocument, type ValidateDocumentOptions } from '../engine/validate-document.js';
import { consoleText } from '../report/model.js';
import { helpText, parseFlags } from './config.js';
import { VALIDATE_HELP } from './help.js';
import type { CommandIO } from './run.js';

export { validateDocument, type DocumentValidation, type ValidateDocumentOptions } from '../engine/validate-document.js';

export const VALIDATE_USAGE = `usage: conformance validate FILE [--type NAME] [--operation OP] [--binding soap11|soap12|get|post]
    [--book-ns URI] [--search-ns URI]

Checks one XML document against the schemas (XSD, libxml2) and the type model (shape walk), with the
framing checks of its binding. The operation and binding are read from the document (SOAP envelope
version and <Operation>Response, or the result element at the root) unless given; --type NAME walks
the root element as that model type instead. The namespaces default to the mock's (also
CONFORMANCE_BOOK_NS, CONFORMANCE_SEARCH_NS). Exit 0 valid, 1 invalid, 2 bad usage.`;

function formatFinding(f: Finding): string {
  const extra = [f.expected !== undefined ? `expected ${f.expected}` : '', f.actual !== undefined ? `got ${f.actual}` : ''].filter(Boolean).join(', ');
  return consoleText(`✗ ${f.check} at ${f.path || '/'}: ${f.message}${extra ? ` (${extra})` : ''}`);
}

export const VALIDATE_OPTIONS = {
  type: { type: 'string' }, operation: { type: 'string' }, binding: { type: 'string' },
  'book-ns': { type: 'string' }, 'search-ns': { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

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
