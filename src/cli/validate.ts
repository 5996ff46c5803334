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
 *
 * Several files and directories (every *.xml file in a directory, sorted) give one line per file and
 * a summary; --config FILE takes the namespaces of a run config. A document whose result element is
 * in another namespace than the configured one gets the same hint as `run` (pass --search-ns X).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BindingId } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import { checkedOptions, validateDocument, type ValidateDocumentOptions } from '../engine/validate-document.js';
import { consoleText } from '../report/model.js';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { resolveRunSettingsFlags } from '../engine/settings.js';
import { helpText, parseFlags } from './config.js';
import { VALIDATE_HELP } from './help.js';
import { VALIDATE_OPTIONS } from './command-settings.js';
import type { CommandIO } from './run.js';

export {
  validateDocument,
  type DocumentValidation,
  type ValidateDocumentOptions,
} from '../engine/validate-document.js';

export const VALIDATE_USAGE = `usage: conformance validate FILE|DIR... [--type NAME] [--operation OP] [--binding soap11|soap12|get|post]
    [--book-ns URI] [--search-ns URI] [--config FILE]

Checks one XML document against the schemas (XSD, libxml2) and the type model (shape walk), with the
framing checks of its binding. The operation and binding are read from the document (SOAP envelope
version and <Operation>Response, or the result element at the root) unless given; --type NAME walks
the root element as that model type instead. The namespaces default to the mock's (also
CONFORMANCE_BOOK_NS, CONFORMANCE_SEARCH_NS, or a run config's target.bookNs and target.searchNs with
--config FILE). Several files, or a directory (its *.xml files), give one line per file and a summary.
Exit 0 valid, 1 invalid, 2 bad usage.`;

function formatFinding(f: Finding): string {
  const extra = [
    f.expected !== undefined ? `expected ${f.expected}` : '',
    f.actual !== undefined ? `got ${f.actual}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return consoleText(`✗ ${f.check} at ${f.path || '/'}: ${f.message}${extra ? ` (${extra})` : ''}`);
}

export { VALIDATE_OPTIONS };

/** The namespaces: the flags, then the environment, then a run config's (--config FILE). */
function namespacesOf(
  f: { 'book-ns'?: string; 'search-ns'?: string; config?: string },
  env: NodeJS.ProcessEnv,
): { book?: string; search?: string } {
  const book = f['book-ns'] ?? env.CONFORMANCE_BOOK_NS;
  const search = f['search-ns'] ?? env.CONFORMANCE_SEARCH_NS;
  if (f.config === undefined) return { book, search };
  // The config is checked as `run` checks it; credentials are not needed to read a document.
  const s = resolveRunSettingsFlags(
    {
      config: f.config,
      user: 'validate',
      password: 'validate',
      ...(book ? { 'book-ns': book } : {}),
      ...(search ? { 'search-ns': search } : {}),
    },
    env,
  );
  return { book: s.namespaces.book, search: s.namespaces.search };
}

/**
 * The hint `run` gives when results come in another namespace: a result element or wrapper whose
 * name matches but whose namespace is not the configured one names the flag to pass.
 */
export function namespaceHints(findings: readonly Finding[], namespaces: { book?: string; search?: string }): string[] {
  const hints = new Set<string>();
  const clark = (s: string | undefined) => (s ? /^\{([^}]*)\}(.+)$/.exec(s) : null);
  for (const f of findings) {
    if (!/_mismatch$/.test(f.code)) continue;
    const want = clark(f.expected);
    const seen = clark(f.actual);
    if (!want || !seen || want[2] !== seen[2] || want[1] === seen[1]) continue;
    const flag = want[1] === (namespaces.book ?? DEFAULT_NAMESPACES.book) ? '--book-ns' : '--search-ns';
    hints.add(`hint: <${seen[2]}> is in namespace ${seen[1] || '(none)'}, not ${want[1]}: pass ${flag} ${seen[1]}`);
  }
  return [...hints];
}

/** The files to check: each FILE as given, each DIR's *.xml files (sorted); a missing path is bad usage. */
function filesOf(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new UsageError(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!st.isDirectory()) {
      out.push(p);
      continue;
    }
    const xml = readdirSync(p)
      .filter((n) => n.toLowerCase().endsWith('.xml'))
      .sort()
      .map((n) => join(p, n))
      .filter((f) => statSync(f).isFile());
    if (xml.length === 0) throw new UsageError(`${p} holds no *.xml file to validate`);
    out.push(...xml);
  }
  return out;
}

/** Several documents: one line per file (its findings under it), then a summary. */
function validateMany(files: readonly string[], base: ValidateDocumentOptions, io: CommandIO): number {
  let valid = 0;
  let invalid = 0;
  const unread: string[] = [];
  const byCheck = new Map<string, number>();
  for (const file of files) {
    let r;
    try {
      r = validateDocument(readFileSync(file), { ...base, source: file });
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      unread.push(file);
      io.out(
        consoleText(
          `? ${file}: not checked: ${e.message.startsWith(`${file}: `) ? e.message.slice(file.length + 2) : e.message}`,
        ),
      );
      continue;
    }
    if (r.valid) {
      valid++;
      io.out(consoleText(`✓ ${file}: ${r.what}`));
    } else {
      invalid++;
      for (const x of r.findings) byCheck.set(x.check, (byCheck.get(x.check) ?? 0) + 1);
      io.out(
        consoleText(
          `✗ ${file}: ${r.what ?? 'not well-formed XML'}: ${r.findings.length} `
            + `finding${r.findings.length === 1 ? '' : 's'}`,
        ),
      );
      for (const x of r.findings.slice(0, 5)) io.out(`    ${formatFinding(x)}`);
      if (r.findings.length > 5) io.out(`    … and ${r.findings.length - 5} more`);
    }
    for (const h of namespaceHints(r.findings, base.namespaces ?? {})) io.out(consoleText(`    ${h}`));
  }
  const checks = [...byCheck].map(([k, n]) => `${k} ${n}`).join(', ');
  io.out(
    `${invalid === 0 && unread.length === 0 ? 'VALID' : 'INVALID'}: ${files.length} `
      + `file${files.length === 1 ? '' : 's'}, ${valid} valid, ${invalid} invalid`
      + `${checks ? ` (${checks})` : ''}${unread.length ? `, ${unread.length} not checked (pass --operation or --type)` : ''}`,
  );
  return unread.length > 0 ? 2 : invalid > 0 ? 1 : 0;
}

export async function validateCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, VALIDATE_OPTIONS, true);
  if (f.help) {
    io.out(helpText(VALIDATE_USAGE, VALIDATE_OPTIONS, VALIDATE_HELP));
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('validate needs a FILE or DIR (got none)');
  const namespaces = namespacesOf(f, io.env);
  const base: ValidateDocumentOptions = {
    type: f.type,
    operation: f.operation,
    binding: f.binding as BindingId | undefined,
    namespaces,
  };
  checkedOptions(base); // bad names are bad usage before any file is read
  const files = filesOf(positionals);
  if (positionals.length > 1 || files.length !== 1 || files[0] !== positionals[0]) return validateMany(files, base, io);
  const file = positionals[0]!;
  const options: ValidateDocumentOptions = { ...base, source: file };
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
  for (const h of namespaceHints(r.findings, namespaces)) io.out(consoleText(h));
  for (const n of r.notes) io.out(consoleText(`  note: ${n}`));
  if (r.valid) {
    io.out('VALID');
    return 0;
  }
  const byCheck = new Map<string, number>();
  for (const x of r.findings) byCheck.set(x.check, (byCheck.get(x.check) ?? 0) + 1);
  io.out(
    `INVALID: ${r.findings.length} finding${r.findings.length > 1 ? 's' : ''} `
      + `(${[...byCheck].map(([k, n]) => `${k} ${n}`).join(', ')})`,
  );
  return 1;
}
