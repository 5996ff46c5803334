/**
 * libxml2 (through libxmljs2) parse and XSD validation of whole response documents: a SOAP 1.1
 * envelope, a SOAP 1.2 envelope or a bare result root (HTTP GET / HTTP POST), against the project's
 * schemas in schemas/ with the target's namespaces substituted.
 *
 * How: the schema texts (namespaces substituted) are written to a private cache directory under
 * os.tmpdir(), keyed by a hash of the namespaces and the schema texts, next to a small "bundle"
 * schema that xs:imports the SOAP 1.1 and 1.2 envelope schemas and the two group schemas by
 * absolute file path (libxml2 needs a schemaLocation to import). The bundle document is parsed once
 * per namespace set. libxmljs2 0.35 compiles the schema again inside every validate() call, reading
 * the imported files again (measured: about 2.7 ms of the about 3 ms one validate() of a small
 * document costs); there is no API to keep the compiled schema.
 *
 * SECURITY: libxmljs2 bundles an old libxml2 (2.9.9) with known flaws in DOM navigation. Target
 * documents are only ever parsed (no entity substitution, no network, no "huge" limits, DOCTYPE
 * refused before parsing) and validated; no navigation method (root(), find(), get(), attrs(),
 * namespaces(), ...) is called on them. Nothing is fetched over the network: every import is a
 * local file.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import libxml, { type Document } from 'libxmljs2';
import { DEFAULT_NAMESPACES, type Namespaces, type NsKey } from '../contract/catalogue.js';
import type { DocumentValidator, LibxmlOutcome } from '../checks/context.js';
import { SCHEMA_FILES, generateCombinedXsd } from '../contract/xsd.js';
import { escapeAttr } from './escape.js';
import { hasDoctype, SOAP11_ENV_NS, SOAP12_ENV_NS, XML_NS } from './tree.js';

/** Default cap on the size of a validated document. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** The project's schema directory (schemas/ at the repository root). */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** Hand-written schemas copied as they are (envelopes, and xml.xsd imported by the SOAP 1.2 one). */
const STATIC_FILES = ['xml.xsd', 'soap11-envelope.xsd', 'soap12-envelope.xsd'] as const;

export interface ValidatorOptions {
  /** Documents larger than this many bytes (UTF-8) are not parsed. Default 32 MiB. */
  readonly maxBytes?: number;
  /** Where the substituted schemas are written; default a directory under os.tmpdir(). */
  readonly cacheDir?: string;
}

export interface SchemaBundle {
  /** Absolute path of the bundle schema importing all the others. */
  readonly path: string;
  /** Directory holding the bundle and the substituted schemas. */
  readonly dir: string;
  /** The parsed bundle document (compiled by libxml2 on each validate()). */
  readonly doc: Document;
  /**
   * The bundle for one document: only the imports whose namespace URI occurs in its text (plus the
   * XML namespace's schema). libxmljs2 0.35 compiles the schema inside every validate(), so this
   * halves the cost of a validation; the verdict and messages are the same, because an element, an
   * attribute or an xsi:type can only be in a namespace the document declares, a declaration spells
   * the URI literally unless it uses character references (then the whole bundle is used), and the
   * group schemas import nothing.
   */
  docFor(xml: string): Document;
  /**
   * Write the schema files again if any was removed (a tmp cleaner): libxml2 reads the imported
   * files on each validate() and silently skips a missing import, which would reject everything.
   */
  ensureFiles(): void;
}

/** Substitute the default (mock) namespaces of a schema text by the target's. */
export function substituteNamespaces(xsd: string, namespaces: Namespaces): string {
  let out = xsd;
  for (const key of Object.keys(DEFAULT_NAMESPACES) as NsKey[]) {
    out = out.split(`"${escapeAttr(DEFAULT_NAMESPACES[key])}"`).join(`"${escapeAttr(namespaces[key])}"`);
  }
  return out;
}

/** The schema files (name → text) for a namespace set, before the bundle is added. */
export function schemaTexts(namespaces: Namespaces): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of STATIC_FILES) files.set(f, readFileSync(join(SCHEMAS_DIR, f), 'utf8'));
  if (namespaces.book === namespaces.search) {
    // One namespace for both groups: two schemas with one target namespace would declare every
    // type twice, so the generator makes one schema with the elements of all the operations.
    files.set('groups.xsd', generateCombinedXsd(namespaces.book));
  } else {
    for (const key of Object.keys(SCHEMA_FILES) as NsKey[]) {
      const text = readFileSync(join(SCHEMAS_DIR, SCHEMA_FILES[key]), 'utf8');
      files.set(SCHEMA_FILES[key], substituteNamespaces(text, namespaces));
    }
  }
  return files;
}

function bundleImports(namespaces: Namespaces): [string, string][] {
  return [
    [SOAP11_ENV_NS, 'soap11-envelope.xsd'],
    [SOAP12_ENV_NS, 'soap12-envelope.xsd'],
    ...(namespaces.book === namespaces.search
      ? [[namespaces.book, 'groups.xsd'] as [string, string]]
      : (Object.keys(SCHEMA_FILES) as NsKey[]).map((k): [string, string] => [namespaces[k], SCHEMA_FILES[k]])),
  ];
}

function bundleText(dir: string, imports: readonly [string, string][]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- Bundle written by src/xml/xsd-validator.ts: imports every schema a response may need. -->',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x-accommodation-conformance:bundle">',
    ...imports.map(([ns, file]) => `  <xs:import namespace="${escapeAttr(ns)}" schemaLocation="${escapeAttr(join(dir, file))}"/>`),
    '</xs:schema>',
    '',
  ].join('\n');
}

/** Write a file atomically unless it already holds exactly that text (parallel workers share the cache). */
function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const bundles = new Map<string, SchemaBundle>();

/**
 * The cache root: a directory of this user under os.tmpdir(), private (0700). A root that is not
 * ours, is a symbolic link or is writable by others is not used (another user could swap a schema
 * in it); a fresh private directory is made instead.
 */
function cacheRoot(cacheDir: string | undefined): string {
  if (cacheDir !== undefined) return cacheDir;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const root = join(tmpdir(), `accommodation-conformance-xsd${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const st = lstatSync(root);
    if (st.isDirectory() && !st.isSymbolicLink() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0) return root;
  } catch {
    // fall through to a private directory
  }
  return mkdtempSync(join(tmpdir(), 'accommodation-conformance-xsd-'));
}

/**
 * The bundle schema for a namespace set: written to the cache directory (once per content, keyed
 * by a hash of the namespaces and the schema texts) and parsed (once per process). Throws when a
 * schema does not compile.
 */
export function schemaBundle(namespaces: Namespaces, cacheDir?: string): SchemaBundle {
  const files = schemaTexts(namespaces);
  const hash = createHash('sha256');
  hash.update(JSON.stringify(namespaces));
  for (const [name, text] of files) hash.update(`\0${name}\0${text}`);
  const digest = hash.digest('hex').slice(0, 20);
  const key = `${cacheDir ?? ''}\0${digest}`;
  const cached = bundles.get(key);
  if (cached) return cached;

  const dir = join(cacheRoot(cacheDir), digest);
  const path = join(dir, 'bundle.xsd');
  const imports = bundleImports(namespaces);
  const text = bundleText(dir, imports);
  const paths = [...files.keys()].map((name) => join(dir, name)).concat(path);
  const write = () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [name, t] of files) writeIfChanged(join(dir, name), t);
    writeIfChanged(path, text);
  };
  const ensureFiles = () => {
    if (!paths.every((p) => existsSync(p))) write();
  };
  write();
  const doc = libxml.parseXml(text, { baseUrl: path, nonet: true, noent: false, huge: false });

  // Compile once now so that a broken schema fails here, with libxml2's messages, not on first use.
  const probe = libxml.parseXml('<probe/>', { nonet: true, noent: false, huge: false });
  try {
    probe.validate(doc);
  } catch (e) {
    const details = (probe.validationErrors ?? []).map((v) => v.message.trim()).join('; ');
    throw new Error(`the XSD bundle ${path} does not compile: ${(e as Error).message}${details ? `: ${details}` : ''}`);
  }
  const subsets = new Map<string, Document>();
  const docFor = (xml: string): Document => {
    if (xml.includes('&#')) return doc;
    const used = imports.filter(([ns]) => xml.includes(ns));
    if (used.length === imports.length) return doc;
    const subsetKey = used.map(([, file]) => file).join(' ');
    let sub = subsets.get(subsetKey);
    if (!sub) {
      // soap12-envelope.xsd imports xml.xsd itself; otherwise import it here, as the whole bundle has it.
      const withXml: [string, string][] = used.some(([ns]) => ns === SOAP12_ENV_NS) ? used : [...used, [XML_NS, 'xml.xsd']];
      sub = libxml.parseXml(bundleText(dir, withXml), { baseUrl: path, nonet: true, noent: false, huge: false });
      subsets.set(subsetKey, sub);
    }
    return sub;
  };
  const bundle = { path, dir, doc, docFor, ensureFiles };
  bundles.set(key, bundle);
  return bundle;
}

type LibxmlError = { message?: string; line?: number; column?: number; level?: number; code?: number; str1?: string };

/**
 * Work-around for a libxml2 bug: XSD collapses whitespace around the value of xs:int and
 * xs:dateTime (facet whiteSpace="collapse"), but libxml2 2.9 rejects " 42 " or "\n2024-01-01T00:00:00\n"
 * (it accepts them for xs:decimal, xs:double, xs:boolean). An error about such a value is dropped
 * when the value without its surrounding XML whitespace is valid for the same built-in type, checked
 * with libxml2 itself against a one-element schema per type.
 */
const RECHECKED_TYPES = ['int', 'dateTime', 'decimal', 'double', 'boolean', 'integer', 'long', 'short', 'date', 'time'] as const;
const ATOMIC_ERROR_CODE = 1824; // XML_SCHEMAV_CVC_DATATYPE_VALID_1_2_1
const ATOMIC_TYPE_RE = /is not a valid value of the atomic type 'xs:([A-Za-z]+)'\.$/;
const XML_WS_RE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
let builtinSchema: Document | undefined;

function validTrimmed(value: string, type: string): boolean {
  if (!(RECHECKED_TYPES as readonly string[]).includes(type)) return false;
  builtinSchema ??= libxml.parseXml(
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${RECHECKED_TYPES.map((t) => `<xs:element name="${t}" type="xs:${t}"/>`).join('')}</xs:schema>`,
    { nonet: true },
  );
  const trimmed = value.replace(XML_WS_RE, '');
  const probe = libxml.parseXml(`<${type}>${trimmed.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${type}>`, { nonet: true, noent: false, huge: false });
  return probe.validate(builtinSchema);
}

/** True for an error that only exists because of the libxml2 whitespace bug. */
function whitespaceBugOnly(e: LibxmlError): boolean {
  if (e.code !== ATOMIC_ERROR_CODE || e.str1 === undefined) return false;
  if (e.str1.replace(XML_WS_RE, '') === e.str1) return false;
  const type = ATOMIC_TYPE_RE.exec((e.message ?? '').trim())?.[1];
  return type !== undefined && validTrimmed(e.str1, type);
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

/** A validator of whole response documents for one namespace configuration. */
export function createDocumentValidator(namespaces: Namespaces, options: ValidatorOptions = {}): DocumentValidator {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  for (const ns of Object.values(namespaces)) {
    // libxml2 keeps "&" of a namespace declaration as "&#38;", so no element would ever match.
    if (ns.includes('&')) throw new Error(`namespace ${ns}: libxml2 cannot validate documents whose namespace URI contains "&"`);
  }
  const bundle = schemaBundle(namespaces, options.cacheDir);

  return {
    validate(xml: string): LibxmlOutcome {
      if (byteLengthOver(xml, maxBytes) !== undefined) {
        return { wellFormedError: `document larger than ${maxBytes} bytes: not parsed`, xsdErrors: [] };
      }
      if (hasDoctype(xml)) {
        return {
          wellFormedError: 'document type declaration (<!DOCTYPE) present: not parsed (not allowed in these messages; entities are never expanded)',
          xsdErrors: [],
        };
      }
      let doc: Document;
      try {
        doc = libxml.parseXml(xml, { noent: false, nonet: true, huge: false });
      } catch (e) {
        const err = e as LibxmlError;
        return { wellFormedError: `${(err.message ?? String(e)).trim()}${where(err)}`, xsdErrors: [] };
      }
      // Namespace well-formedness errors (an undeclared prefix...) do not stop libxml2's parser.
      const nsError = (doc.errors as unknown as LibxmlError[]).find((e) => (e.level ?? 0) >= 2);
      if (nsError) return { wellFormedError: `${(nsError.message ?? '').trim()}${where(nsError)}`, xsdErrors: [] };

      let valid: boolean;
      try {
        bundle.ensureFiles();
        valid = doc.validate(bundle.docFor(xml));
      } catch (e) {
        return { xsdErrors: [{ message: `XSD validation could not run (schemas in ${bundle.dir}): ${(e as Error).message}` }] };
      }
      if (valid) return { xsdErrors: [] };
      const all = (doc.validationErrors as unknown as LibxmlError[]).filter((e) => (e.level ?? 2) >= 2);
      const errors = all.filter((e) => !whitespaceBugOnly(e));
      if (all.length > 0 && errors.length === 0) return { xsdErrors: [] };
      const xsdErrors = errors.map((e) => ({
        message: (e.message ?? 'invalid').trim(),
        ...(e.line ? { line: e.line } : {}),
        ...(e.column ? { column: e.column } : {}),
      }));
      return { xsdErrors: xsdErrors.length > 0 ? xsdErrors : [{ message: 'the document is not valid against the schemas' }] };
    },
  };
}
